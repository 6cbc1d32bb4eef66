/**
 * Building blocks of the wire schemas: every request and response body is declared once, in TypeBox,
 * and its TypeScript type is derived from it (`Static<typeof X>`).
 *
 * The pattern every wire file follows:
 *
 * ```ts
 * export const Thing = WireObject("What a thing is.", { thing_id: Id("The thing's ID.") });
 * export type Thing = Static<typeof Thing>;
 * ```
 *
 * Schemas carry no `$id` (the OpenAPI document names them by their export), always a `description`, and objects
 * refuse unknown members (`additionalProperties: false`): the server answers 422 `unknown_field`.
 */

import { type Static, type TProperties, type TSchema, type TStringOptions, Type } from "typebox";

/** Longest ID accepted anywhere (IDs chosen by products, such as `binding_id`, and server-made ones). */
export const ID_MAX_LENGTH = 128;

/** What an ID may contain: letters, digits and `_ . : -`, starting with a letter or digit. */
export const ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.:-]*$";

/** Largest page a list answers (`limit`). */
export const PAGE_LIMIT_MAX = 200;

/** Page size when `limit` is not given. */
export const PAGE_LIMIT_DEFAULT = 50;

/** A strict object schema: every member described, unknown members refused (422 `unknown_field`). */
export function WireObject<Properties extends TProperties>(description: string, properties: Properties) {
  return Type.Object(properties, { description, additionalProperties: false });
}

/** An opaque ID string (1–128 characters of ID_PATTERN). */
export function Id(description: string) {
  return Type.String({ description, minLength: 1, maxLength: ID_MAX_LENGTH, pattern: ID_PATTERN });
}

/**
 * The pattern of a string the server stores as plain text (names, subjects, instructions, receipt
 * IDs, cursors): anything but U+0000, which PostgreSQL text cannot hold. Lone surrogates are refused
 * for every string of a body when it is read (422 `lone_surrogate`).
 */
export const NO_NUL_PATTERN = "^[^\\x00]*$";

/** A string the server stores as plain text: U+0000 is refused (422 `validation_failed` at its pointer). */
export function StoredText(options: TStringOptions & { description: string }) {
  return Type.String({ ...options, pattern: NO_NUL_PATTERN });
}

/** A point in time as ISO 8601 UTC text with milliseconds (`2026-09-30T12:00:00.000Z`). */
export function Timestamp(description: string) {
  return Type.String({ description, format: "date-time" });
}

/** `schema` or `null`. */
export function Nullable<Schema extends TSchema>(schema: Schema, description: string) {
  return Type.Union([schema, Type.Null()], { description });
}

/** The list envelope every list answers (docs/http-api.md): `{data: [...], next_cursor}`. */
export function Page<Item extends TSchema>(description: string, item: Item) {
  return WireObject(description, {
    data: Type.Array(item, { description: "The items of this page, in list order." }),
    next_cursor: Nullable(
      Type.String({ description: "Opaque cursor of the next page." }),
      "Pass as `cursor` to read the next page; null on the last page.",
    ),
  });
}

/** The query of every list: `limit` (1–200, default 50) and the `cursor` of a previous page. */
export const PageQuery = WireObject("Paging of a list.", {
  limit: Type.Optional(
    Type.Integer({
      description: `How many items to answer at most (default ${PAGE_LIMIT_DEFAULT}).`,
      minimum: 1,
      maximum: PAGE_LIMIT_MAX,
      default: PAGE_LIMIT_DEFAULT,
    }),
  ),
  cursor: Type.Optional(
    StoredText({ description: "The `next_cursor` of the previous page.", minLength: 1, maxLength: 1024 }),
  ),
});

/** The query of every list. */
export type PageQuery = Static<typeof PageQuery>;

/** A free-form JSON object (error details, model settings): any members. */
export function AnyObject(description: string) {
  return Type.Unsafe<Record<string, unknown>>({ type: "object", additionalProperties: true, description });
}
