/**
 * Turning what a handler returns into a JSON value the protocol's compact writer can send. Lossless
 * values (JsonNumber, Map objects read from a claim) pass through untouched; plain JavaScript follows
 * JSON.stringify's rules (`toJSON`, `undefined` members dropped, `undefined` in arrays → null), except
 * that a `bigint` keeps its exact digits and anything JSON cannot say (a function, a symbol, a cycle,
 * a non-finite number) is refused with the path at fault instead of silently becoming null.
 */

import { JsonNumber, type JsonValue, pointerAppend } from "@toolhost/protocol";
import { RunnerError } from "./errors.js";

/** Deepest nesting accepted (the server refuses deeper documents anyway). */
const MAX_DEPTH = 512;

/** `value` as a JSON value; throws RunnerError `invalid_json` naming the pointer at fault. */
export function toJsonValue(value: unknown): JsonValue {
  return convert(value, "", new Set(), 0);
}

function refuse(pointer: string, what: string): never {
  throw new RunnerError("invalid_json", `${what} at ${pointer === "" ? "the top" : pointer} cannot be sent as JSON`, {
    pointer,
  });
}

function convert(value: unknown, pointer: string, seen: Set<object>, depth: number): JsonValue {
  if (depth > MAX_DEPTH) refuse(pointer, "nesting this deep");
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : refuse(pointer, `the number ${value}`);
  if (typeof value === "bigint") return new JsonNumber(value.toString(), true);
  if (typeof value !== "object") return refuse(pointer, `a ${typeof value}`);
  if (value instanceof JsonNumber) return value;
  const withToJson = value as { toJSON?: unknown };
  if (typeof withToJson.toJSON === "function" && !(value instanceof Map)) {
    return convert((withToJson.toJSON as () => unknown).call(value), pointer, seen, depth + 1);
  }
  if (seen.has(value)) refuse(pointer, "a cycle");
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item, index) =>
        item === undefined || typeof item === "function" || typeof item === "symbol"
          ? null
          : convert(item, pointerAppend(pointer, index), seen, depth + 1),
      );
    }
    const out = new Map<string, JsonValue>();
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    for (const [key, member] of entries) {
      if (typeof key !== "string") refuse(pointer, "a non-string key");
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      out.set(key, convert(member, pointerAppend(pointer, key), seen, depth + 1));
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
