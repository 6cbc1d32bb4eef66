// Shared by the projection tests: small builders, reading a cut result, rebuilding its envelope with
// another preview (to check maximality), and a reference collector of preserved fields written from
// docs/projection.md alone.
import { expect } from "vitest";
import {
  type ContextPreview,
  compact,
  isProtocolError,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  measure,
  type ProtocolError,
  TRUNCATION_NOTICE,
} from "../src/index.js";

/** UTF-8 bytes of a string. */
export function utf8(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** What a text costs inside a JSON string literal, quotes not counted (JSON.stringify escapes alike). */
export function escapedCost(text: string): number {
  return utf8(JSON.stringify(text)) - 2;
}

/** A JSON object in the given key order. */
export function obj(...entries: [string, JsonValue][]): JsonObject {
  return new Map(entries);
}

/** `[1,1,…,1]`: plain ASCII without escapes, `2n + 1` bytes. */
export function ones(n: number): JsonValue[] {
  return new Array<JsonValue>(n).fill(1);
}

/** Runs `attempt` and answers the ProtocolError it throws (the test fails if it throws none). */
export function refusal(attempt: () => unknown): ProtocolError {
  let caught: unknown;
  try {
    attempt();
  } catch (error) {
    caught = error;
  }
  expect(isProtocolError(caught), `expected a ProtocolError, got ${String(caught)}`).toBe(true);
  return caught as ProtocolError;
}

/** The parts of a cut plain-JSON projection. */
export interface CutParts {
  original: number;
  omitted: number;
  notice: string;
  preserved: JsonObject;
  head: string;
  tail: string;
}

/** Reads the envelope of a truncated projection, checking its exact shape and key order on the way. */
export function cutParts(preview: ContextPreview): CutParts {
  const root = preview.result;
  expect(root).toBeInstanceOf(Map);
  const map = root as JsonObject;
  expect([...map.keys()]).toEqual(["truncation", "preserved_fields", "preview"]);
  const truncation = map.get("truncation") as JsonObject;
  const preserved = map.get("preserved_fields") as JsonObject;
  const view = map.get("preview") as JsonObject;
  expect([...truncation.keys()]).toEqual(["original_bytes", "omitted_bytes", "notice"]);
  expect([...view.keys()]).toEqual(["head", "tail"]);
  expect(preserved).toBeInstanceOf(Map);
  const original = truncation.get("original_bytes");
  const omitted = truncation.get("omitted_bytes");
  const notice = truncation.get("notice");
  const head = view.get("head");
  const tail = view.get("tail");
  expect(typeof original).toBe("number");
  expect(typeof omitted).toBe("number");
  expect(typeof head).toBe("string");
  expect(typeof tail).toBe("string");
  expect(notice).toBe(TRUNCATION_NOTICE);
  return {
    original: original as number,
    omitted: omitted as number,
    notice: notice as string,
    preserved,
    head: head as string,
    tail: tail as string,
  };
}

/** The envelope docs/projection.md prescribes, built independently of the implementation. */
export function envelope(parts: Omit<CutParts, "notice">): JsonObject {
  return new Map<string, JsonValue>([
    [
      "truncation",
      new Map<string, JsonValue>([
        ["original_bytes", parts.original],
        ["omitted_bytes", parts.omitted],
        ["notice", TRUNCATION_NOTICE],
      ]),
    ],
    ["preserved_fields", parts.preserved],
    [
      "preview",
      new Map<string, JsonValue>([
        ["head", parts.head],
        ["tail", parts.tail],
      ]),
    ],
  ]);
}

/** The character (whole code point) of `text` that starts at `index`. */
export function characterAt(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index) as number);
}

/** The character (whole code point) of `text` that ends just before `end`. */
export function characterBefore(text: string, end: number): string {
  const last = text.charCodeAt(end - 1);
  const width = last >= 0xdc00 && last <= 0xdfff && end >= 2 ? 2 : 1;
  return text.slice(end - width, end);
}

/**
 * Asserts every rule of a cut over the compact text `full`: prefix/suffix without overlap, whole
 * characters, the omitted count, the measure, and maximality (one more character on either side,
 * with `omitted_bytes` updated to match, measures over the budget).
 */
export function expectLawfulCut(preview: ContextPreview, full: string, budget: number): CutParts {
  const parts = cutParts(preview);
  const { head, tail, omitted, original } = parts;
  expect(preview.truncated).toBe(true);
  expect(original).toBe(utf8(full));
  expect(preview.original_bytes).toBe(original);
  expect(full.startsWith(head)).toBe(true);
  expect(full.endsWith(tail)).toBe(true);
  expect(head.length + tail.length).toBeLessThan(full.length);
  expect(head.isWellFormed() && tail.isWellFormed()).toBe(true);
  expect(omitted).toBe(original - utf8(head) - utf8(tail));
  expect(preview.retained_bytes).toBe(measure(preview.result));
  expect(preview.retained_bytes).toBe(utf8(compact(preview.result)));
  expect(preview.retained_bytes).toBeLessThanOrEqual(budget);

  const next = characterAt(full, head.length);
  const longerHead = envelope({ ...parts, head: head + next, omitted: omitted - utf8(next) });
  expect(measure(longerHead), `one more character on the head (${JSON.stringify(next)}) fits`).toBeGreaterThan(budget);
  const previous = characterBefore(full, full.length - tail.length);
  const longerTail = envelope({ ...parts, tail: previous + tail, omitted: omitted - utf8(previous) });
  expect(measure(longerTail), `one more character on the tail (${JSON.stringify(previous)}) fits`).toBeGreaterThan(
    budget,
  );
  return parts;
}

const STATUS_KEYS = [
  "status",
  "state",
  "ok",
  "success",
  "error",
  "code",
  "id",
  "next_cursor",
  "cursor",
  "next_page_token",
  "has_more",
  "total",
  "count",
];

/** docs/projection.md's status, identifier and paging keys. */
export function isStatusKey(key: string): boolean {
  return STATUS_KEYS.includes(key) || /_(id|status|cursor)$/.test(key);
}

function isShort(value: JsonValue): boolean {
  if (value === null || typeof value === "boolean" || typeof value === "number" || value instanceof JsonNumber) {
    return true;
  }
  return typeof value === "string" && utf8(value) <= 128;
}

/** docs/projection.md's preserved fields, the slow obvious way: candidates in order, each kept if the whole still fits. */
export function referencePreserved(result: JsonValue, limit: number): JsonObject {
  const out: JsonObject = new Map();
  if (!(result instanceof Map)) return out;
  const candidates: [string, JsonValue][] = [];
  for (const [key, value] of result) if (isStatusKey(key) && isShort(value)) candidates.push([key, value]);
  for (const [parent, child] of result) {
    if (!(child instanceof Map)) continue;
    for (const [key, value] of child)
      if (isStatusKey(key) && isShort(value)) candidates.push([`${parent}.${key}`, value]);
  }
  for (const [path, value] of candidates) {
    if (out.has(path)) continue;
    const trial: JsonObject = new Map(out);
    trial.set(path, value);
    if (utf8(compact(trial)) <= limit) out.set(path, value);
  }
  return out;
}
