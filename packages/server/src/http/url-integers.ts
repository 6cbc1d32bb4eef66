/**
 * Reading integers from the text of a query string or a path (pure). A URL carries text, so an
 * integer member (`limit`, `wait_ms`, a version number) is read here, before schema validation, and
 * only in one spelling: plain decimal digits without sign, spaces, leading zeros or exponent
 * (`0`, `5`, `200`). JavaScript's number reading would also take `1e1`, `0x10`, ` 5`, `Infinity` or
 * `1e400` (an infinite page size reached the database), so nothing else is converted: any other
 * text stays text and is refused at the member's pointer. Range checks stay with the schema.
 */

import { pointerAppend } from "@toolhost/protocol";
import type { FastifySchemaValidationError } from "fastify";

/** The only spelling of an integer accepted in a URL: `0`, or digits without a leading zero. */
export const URL_INTEGER_PATTERN = /^(?:0|[1-9][0-9]*)$/;

/** Reads the integer members of a URL part in place; answers the first member that is not one. */
export type UrlIntegerReader = (data: unknown) => FastifySchemaValidationError | undefined;

/** The value of `text` when it is a plain decimal integer, else undefined. */
export function readUrlInteger(text: unknown): number | undefined {
  return typeof text === "string" && URL_INTEGER_PATTERN.test(text) ? Number(text) : undefined;
}

/**
 * The reader for the URL part validated by `schema` (an object schema). Every integer member must
 * declare a `maximum` a double holds exactly, so that a long run of digits (read as a rounded double)
 * is always refused by the range check and never used: a schema without one is refused here, at
 * route registration.
 */
export function urlIntegerReader(schema: unknown): UrlIntegerReader {
  const names = integerMembers(schema);
  if (names.length === 0) return () => undefined;
  return (data) => {
    if (data === null || typeof data !== "object") return undefined;
    const values = data as Record<string, unknown>;
    for (const name of names) {
      if (!Object.hasOwn(values, name)) continue;
      const text = values[name];
      const value = readUrlInteger(text);
      if (value !== undefined) {
        values[name] = value;
        continue;
      }
      const repeated = Array.isArray(text);
      return {
        keyword: "type",
        instancePath: pointerAppend("", name),
        schemaPath: `#/properties/${name}/type`,
        params: { type: "integer" },
        message: repeated
          ? "must be given once, as a decimal integer"
          : "must be a decimal integer (digits only: no sign, spaces, leading zeros, fraction or exponent)",
      };
    }
    return undefined;
  };
}

/** The names of the members of `schema` whose type is `integer`. */
function integerMembers(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown; maximum?: unknown }> } | null)
    ?.properties;
  if (properties === undefined || properties === null) return [];
  const names: string[] = [];
  for (const [name, member] of Object.entries(properties)) {
    if (member?.type !== "integer") continue;
    const { maximum } = member;
    if (typeof maximum !== "number" || !Number.isSafeInteger(maximum)) {
      throw new Error(`the URL integer ${name} needs a maximum of at most ${Number.MAX_SAFE_INTEGER}`);
    }
    names.push(name);
  }
  return names;
}
