/**
 * Opaque list cursors for keyset pagination: base64url of a small JSON object naming the list it
 * belongs to and the key of the last item served. A cursor that does not decode to that shape is a
 * `validation_failed` error at `/cursor` (a 422, never a 500).
 */

import { ProtocolError } from "@toolhost/protocol";
import type { Page } from "./records.js";

/** The position after an item of a list ordered by (created_at_ms, id). */
export interface CreatedKey {
  at: number;
  id: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** What no issued cursor's ID holds and no database parameter may: U+0000 (PostgreSQL refuses it), a lone surrogate. */
const UNSTORABLE = /[\0\p{Cs}]/u;

function invalidCursor(): ProtocolError {
  return new ProtocolError("validation_failed", "cursor is not a cursor issued by this list", "/cursor");
}

function encode(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

function decode(cursor: string, list: string): Record<string, unknown> {
  if (!BASE64URL.test(cursor)) throw invalidCursor();
  const bytes = Buffer.from(cursor, "base64url");
  if (bytes.toString("base64url") !== cursor) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidCursor();
  const object = value as Record<string, unknown>;
  if (object.l !== list) throw invalidCursor();
  return object;
}

/** The cursor after `key` in the list named `list` (ordered by creation time, then ID). */
export function encodeCreatedCursor(list: string, key: CreatedKey): string {
  return encode({ l: list, t: key.at, id: key.id });
}

/** The key a cursor of `list` points after; undefined for the first page. */
export function decodeCreatedCursor(list: string, cursor: string | null | undefined): CreatedKey | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  const object = decode(cursor, list);
  const { t, id } = object;
  if (!Number.isSafeInteger(t) || typeof id !== "string" || UNSTORABLE.test(id) || Object.keys(object).length !== 3) {
    throw invalidCursor();
  }
  return { at: t as number, id };
}

/** The cursor after ID `id` in the list named `list` (ordered by an ID alone). */
export function encodeIdCursor(list: string, id: string): string {
  return encode({ l: list, id });
}

/** The ID a cursor of `list` points after; undefined for the first page. */
export function decodeIdCursor(list: string, cursor: string | null | undefined): string | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  const object = decode(cursor, list);
  const { id } = object;
  if (typeof id !== "string" || Object.keys(object).length !== 2) throw invalidCursor();
  return id;
}

/** The cursor after number `n` in the list named `list` (ordered by a version number). */
export function encodeNumberCursor(list: string, n: number): string {
  return encode({ l: list, n });
}

/** The number a cursor of `list` points after; undefined for the first page. */
export function decodeNumberCursor(list: string, cursor: string | null | undefined): number | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  const object = decode(cursor, list);
  const { n } = object;
  if (!Number.isSafeInteger(n) || Object.keys(object).length !== 2) throw invalidCursor();
  return n as number;
}

/**
 * The page of `rows`, fetched with `limit + 1` so that a further row proves there is a next page;
 * its cursor points after the last item served.
 */
export function pageOf<T>(rows: T[], limit: number, cursorAfter: (last: T) => string): Page<T> {
  if (rows.length <= limit) return { items: rows, next_cursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next_cursor: last === undefined ? null : cursorAfter(last) };
}
