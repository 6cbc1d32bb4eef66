/**
 * One tool of a toolset version: strict validation and the normalized, stored form (docs/configuration.md).
 *
 * Definitions are strict because a typo (`max_result_context_byte`) silently ignored would leave a
 * tool on a default nobody chose. Errors carry the JSON pointer of the field at fault; a missing
 * required field is pointed at where it belongs (`/tools/0/name`). `null` is a wrong type, never
 * "absent". Checks run in this order, first failure wins: the value is an object, removed fields,
 * unknown fields (each in the sender's key order), then the fields in TOOL_DEFINITION_FIELDS order.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { checkBudget, RESULT_CONTEXT_BYTES } from "../projection/budget.js";
import { compileJsonSchema, type JsonSchemaObject } from "./json-schema.js";
import { isPlainObject, type PlainObject, toPlainJson } from "./plain-json.js";
import { isToolEffect, TOOL_EFFECTS, type ToolEffect } from "./tool-effect.js";

/** Tool names: 1–128 ASCII letters, digits, `_`, `.`, `-` — safe in URLs, logs and model tool lists. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Bounds and default of `timeout_ms`, in milliseconds: at most a day; 5 minutes when not declared. */
export const TIMEOUT_MS = {
  /** The shortest timeout a tool may declare: 1 ms. */
  min: 1,
  /** The longest: 24 hours; longer business work should be a long-running task reporting progress. */
  max: 86_400_000,
  /** The timeout of a tool that declares none: 5 minutes. */
  default: 300_000,
} as const;

/** The fields of a tool definition, in the order the normalized definition lists them. */
export const TOOL_DEFINITION_FIELDS = [
  "name",
  "description",
  "binding_id",
  "input_schema",
  "output_schema",
  "max_result_context_bytes",
  "effect",
  "timeout_ms",
] as const;

/** Fields removed from the protocol without alias; sending one is `field_removed` naming the replacement. */
export const REMOVED_TOOL_FIELDS = {
  /** The old token budget: tokens were an estimate, bytes of compact JSON are exact. */
  max_result_tokens: "max_result_context_bytes",
  /** The old receipt-refusal limit: receipts are never refused for size now, only projected. */
  max_result_bytes: "max_result_context_bytes",
} as const;

/** A validated tool definition with every default filled in, keys in TOOL_DEFINITION_FIELDS order. */
export interface ToolDefinition {
  /** Unique within the toolset version; matches TOOL_NAME_PATTERN. */
  name: string;
  /** Shown to the model; default `""`. */
  description: string;
  /** The executor binding that runs the tool; the server checks it is registered. */
  binding_id: string;
  /** A draft 2020-12 JSON Schema whose `type` is `"object"`; tool arguments must match it. */
  input_schema: JsonSchemaObject;
  /** A draft 2020-12 JSON Schema describing results; default `{}` (any result). */
  output_schema: JsonSchemaObject;
  /** Bytes of compact JSON of a result the model sees: 1,024–32,768, default 16,384. */
  max_result_context_bytes: number;
  /** `"write"` (default) or `"read"`. */
  effect: ToolEffect;
  /** The call's timeout in milliseconds: TIMEOUT_MS.min–max, default TIMEOUT_MS.default. */
  timeout_ms: number;
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set(TOOL_DEFINITION_FIELDS);

/** Validates one tool definition and returns it normalized; throws a ProtocolError naming the pointer. */
export function validateToolDefinition(input: unknown, pointer = ""): ToolDefinition {
  const tool = toPlainJson(input, pointer);
  if (!isPlainObject(tool)) {
    throw new ProtocolError(
      "validation_failed",
      `a tool definition must be a JSON object; got ${jsonType(tool)}`,
      pointer,
    );
  }
  checkFieldNames(tool, pointer);
  const at = (field: string): string => pointerAppend(pointer, field);

  const name = requiredString(tool, "name", at("name"));
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new ProtocolError(
      "validation_failed",
      `name must be 1–128 characters of A–Z, a–z, 0–9, "_", "." or "-"; got ${JSON.stringify(name)}`,
      at("name"),
      { pattern: TOOL_NAME_PATTERN.source },
    );
  }
  const description = Object.hasOwn(tool, "description")
    ? stringField(tool.description, "description", at("description"))
    : "";
  const binding_id = requiredString(tool, "binding_id", at("binding_id"));
  if (binding_id === "") throw new ProtocolError("validation_failed", "binding_id must not be empty", at("binding_id"));

  if (!Object.hasOwn(tool, "input_schema")) throw missing("input_schema", at("input_schema"));
  const input_schema = schemaField(tool.input_schema, "input_schema", at("input_schema"));
  if (input_schema.type !== "object") {
    throw new ProtocolError(
      "invalid_schema",
      `input_schema must have "type": "object" (tool arguments are a JSON object); got ${JSON.stringify(input_schema.type) ?? "no type"}`,
      pointerAppend(at("input_schema"), "type"),
      { field: "input_schema" },
    );
  }
  const output_schema = Object.hasOwn(tool, "output_schema")
    ? schemaField(tool.output_schema, "output_schema", at("output_schema"))
    : {};

  const max_result_context_bytes = Object.hasOwn(tool, "max_result_context_bytes")
    ? checkBudget(tool.max_result_context_bytes, at("max_result_context_bytes"))
    : RESULT_CONTEXT_BYTES.default;

  let effect: ToolEffect = TOOL_EFFECTS.write;
  if (Object.hasOwn(tool, "effect")) {
    if (!isToolEffect(tool.effect)) {
      throw new ProtocolError(
        "validation_failed",
        `effect must be "write" or "read"; got ${JSON.stringify(tool.effect)}`,
        at("effect"),
        { allowed: Object.values(TOOL_EFFECTS) },
      );
    }
    effect = tool.effect;
  }

  let timeout_ms: number = TIMEOUT_MS.default;
  if (Object.hasOwn(tool, "timeout_ms")) {
    const value = tool.timeout_ms;
    if (typeof value !== "number" || !Number.isInteger(value) || value < TIMEOUT_MS.min || value > TIMEOUT_MS.max) {
      throw new ProtocolError(
        "validation_failed",
        `timeout_ms must be an integer from ${TIMEOUT_MS.min} to ${TIMEOUT_MS.max} (24 h); got ${JSON.stringify(value)}`,
        at("timeout_ms"),
        { min: TIMEOUT_MS.min, max: TIMEOUT_MS.max, default: TIMEOUT_MS.default },
      );
    }
    timeout_ms = value;
  }

  return {
    name,
    description,
    binding_id,
    input_schema,
    output_schema,
    max_result_context_bytes,
    effect,
    timeout_ms,
  };
}

/** Refuses removed fields first (their error says what to send instead), then unknown ones. */
function checkFieldNames(tool: PlainObject, pointer: string): void {
  const keys = Object.keys(tool);
  for (const key of keys) {
    if (Object.hasOwn(REMOVED_TOOL_FIELDS, key)) {
      const replacement = REMOVED_TOOL_FIELDS[key as keyof typeof REMOVED_TOOL_FIELDS];
      throw new ProtocolError(
        "field_removed",
        `${key} was removed; use ${replacement} (bytes of compact JSON of the result, ${RESULT_CONTEXT_BYTES.min}–${RESULT_CONTEXT_BYTES.max}, default ${RESULT_CONTEXT_BYTES.default}); there is no alias`,
        pointerAppend(pointer, key),
        { field: key, replacement },
      );
    }
  }
  for (const key of keys) {
    if (!KNOWN_FIELDS.has(key)) {
      throw new ProtocolError(
        "unknown_field",
        `unknown field ${JSON.stringify(key)}; a tool definition has only ${TOOL_DEFINITION_FIELDS.join(", ")}`,
        pointerAppend(pointer, key),
        { field: key, allowed: [...TOOL_DEFINITION_FIELDS] },
      );
    }
  }
}

function requiredString(tool: PlainObject, field: string, pointer: string): string {
  if (!Object.hasOwn(tool, field)) throw missing(field, pointer);
  return stringField(tool[field], field, pointer);
}

function stringField(value: unknown, field: string, pointer: string): string {
  if (typeof value !== "string") {
    throw new ProtocolError("validation_failed", `${field} must be a string; got ${jsonType(value)}`, pointer);
  }
  return value;
}

function schemaField(value: unknown, field: string, pointer: string): JsonSchemaObject {
  if (!isPlainObject(value) && typeof value !== "boolean") {
    throw new ProtocolError(
      "validation_failed",
      `${field} must be a JSON Schema object; got ${jsonType(value)}`,
      pointer,
    );
  }
  compileJsonSchema(value, pointer, field);
  return value as JsonSchemaObject;
}

function missing(field: string, pointer: string): ProtocolError {
  return new ProtocolError("validation_failed", `${field} is required`, pointer, { field });
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}
