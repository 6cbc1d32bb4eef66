/**
 * Reading a JSON request body (pure). The text is kept exactly as received (receipts store it
 * verbatim); the value comes from `JSON.parse`, refusing a member name given twice in the body's
 * envelope (readers disagree on which one counts), and — unless the route reports them itself —
 * strings holding a lone surrogate (`"\ud800"`), which UTF-8 cannot encode: a database would store
 * something else than what was answered. Members named `__proto__` or `constructor` are data:
 * `JSON.parse` makes them own members (never a prototype), free-form values (results, inputs,
 * arguments, progress) keep them as sent, and in the envelope the strict schemas refuse them as 422
 * `unknown_field` like any other unknown member.
 */

import { ProtocolError, pointerAppend } from "@toolhost/protocol";
import { findDuplicateMember } from "./duplicate-member.js";

/** A parsed JSON body and its exact text. */
export interface JsonBody {
  readonly text: string;
  readonly value: unknown;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Longest parser explanation quoted in an `invalid_json` message. */
const MAX_REASON_LENGTH = 160;

/** Duplicate member names are looked for in the body's own members (inside payloads, the last one wins). */
const ENVELOPE_DEPTH = 1;

/** Cheap pre-check: a lone surrogate can only come from a `\uD800`–`\uDFFF` escape (the text is valid UTF-8). */
const SUSPECT_SURROGATE = /\\u[dD][89a-fA-F]/;

/** A lone surrogate: a UTF-16 surrogate code unit without its partner (the `u` flag reads pairs as one). */
const LONE_SURROGATE = /\p{Cs}/u;

/** How a body is read. */
export interface JsonBodyOptions {
  /** True to let strings with lone surrogates through (a route that reports them itself, storing nothing). */
  readonly keepLoneSurrogates?: boolean;
}

/**
 * Decodes and parses `bytes`; an empty body is `undefined` (as if none was sent). Throws 400
 * `invalid_json`, 400 `duplicate_member` or 422 `lone_surrogate`, with the pointer when there is one.
 */
export function readJsonBody(bytes: Uint8Array, options: JsonBodyOptions = {}): JsonBody | undefined {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ProtocolError("invalid_json", "the body is not valid UTF-8");
  }
  if (text.charCodeAt(0) === 0xfeff) throw new ProtocolError("invalid_json", "the body starts with a byte order mark");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, MAX_REASON_LENGTH) : "syntax error";
    throw new ProtocolError("invalid_json", `the body is not well-formed JSON: ${reason}`);
  }
  const duplicate = findDuplicateMember(text, ENVELOPE_DEPTH);
  if (duplicate !== undefined) {
    const name = JSON.stringify(duplicate.name.slice(0, MAX_REASON_LENGTH));
    throw new ProtocolError("duplicate_member", `the member ${name} appears twice in one object`, duplicate.pointer);
  }
  const lone =
    options.keepLoneSurrogates === true || !SUSPECT_SURROGATE.test(text) ? undefined : loneSurrogateAt(value);
  if (lone !== undefined) {
    throw new ProtocolError("lone_surrogate", "a string holds a lone surrogate, which UTF-8 cannot encode", lone);
  }
  return { text, value };
}

/** The JSON pointer of the first string (member names included) holding a lone surrogate, if any. */
function loneSurrogateAt(root: unknown): string | undefined {
  const stack: Array<{ value: unknown; pointer: string }> = [{ value: root, pointer: "" }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value, pointer } = entry;
    if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) return pointer;
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], pointer: `${pointer}/${i}` });
      continue;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const at = pointerAppend(pointer, key);
      if (LONE_SURROGATE.test(key)) return at;
      stack.push({ value: object[key], pointer: at });
    }
  }
  return undefined;
}
