/**
 * Small checks shared by the strict configuration validators (model settings): unknown members are
 * refused with their pointer, and values are named by their JSON type in messages.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import type { PlainObject } from "./plain-json.js";

/** `null`, `an array`, `an object`, `a string`, … — how messages name a value's JSON type. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Throws `unknown_field` at the first member of `object` (in the sender's order) not in `allowed`. */
export function refuseUnknownFields(
  object: PlainObject,
  allowed: readonly string[],
  pointer: string,
  what: string,
): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw new ProtocolError(
        "unknown_field",
        `unknown field ${JSON.stringify(key)}; ${what} has only ${allowed.join(", ")}`,
        pointerAppend(pointer, key),
        { field: key, allowed: [...allowed] },
      );
    }
  }
}

/** The required member `field` of `object`; `validation_failed` at its pointer when it is absent. */
export function requiredMember(object: PlainObject, field: string, pointer: string): unknown {
  if (!Object.hasOwn(object, field)) {
    throw new ProtocolError("validation_failed", `${field} is required`, pointerAppend(pointer, field), { field });
  }
  return object[field];
}
