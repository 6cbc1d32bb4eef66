/**
 * The cut of a plain JSON result that does not fit its budget (docs/projection.md): a fixed envelope holding the
 * truncation facts, the preserved fields and a maximal head/tail preview of the compact text.
 *
 * `omitted_bytes` is inside the envelope, so its digit count changes the space left for the preview,
 * which changes `omitted_bytes`. The first cut assumes the most digits it can have (those of
 * `original_bytes`), so it always fits. While the count it leaves has fewer digits, the cut is redone
 * for that many; a wider cut is kept only if it still fits (the equal split can make a wider allowance
 * keep fewer raw bytes, hence more omitted). Last, the preview grows by whole characters while the
 * envelope still fits: a character that takes `omitted_bytes` down a digit pays for part of itself,
 * so the cut is maximal across a power of ten too.
 */

import { measure } from "../json/measure.js";
import type { JsonObject, JsonValue } from "../json/value.js";
import { TRUNCATION_NOTICE } from "./context-preview.js";
import { cutHeadTail, growHeadTail } from "./head-tail.js";
import type { MeasuredResult } from "./measured-result.js";
import { collectPreservedFields } from "./preserved-fields.js";

/** The projected value of a plain JSON result over budget, and its measure. */
export function truncateJson(measured: MeasuredResult, budget: number): { result: JsonObject; bytes: number } {
  const preserved = collectPreservedFields(measured.value, Math.floor(budget / 4));
  const original = measured.bytes;
  const text = measured.compactText;
  // The envelope with an empty preview, less the one digit of its `omitted_bytes` (0).
  const frame = measure(envelope(original, 0, preserved, "", "")) - 1;
  const fits = (escapedBytes: number, rawBytes: number): boolean =>
    frame + String(original - rawBytes).length + escapedBytes <= budget;
  let digits = String(original).length;
  let cut = cutHeadTail(text, budget - frame - digits);
  for (;;) {
    const fewer = String(original - cut.rawBytes).length;
    if (fewer >= digits) break;
    const wider = cutHeadTail(text, budget - frame - fewer);
    if (!fits(wider.escapedBytes, wider.rawBytes)) break;
    cut = wider;
    digits = fewer;
  }
  cut = growHeadTail(text, cut, fits);
  const omitted = original - cut.rawBytes;
  return {
    result: envelope(original, omitted, preserved, cut.head, cut.tail),
    bytes: frame + String(omitted).length + cut.escapedBytes,
  };
}

function envelope(original: number, omitted: number, preserved: JsonObject, head: string, tail: string): JsonObject {
  const truncation: JsonObject = new Map<string, JsonValue>([
    ["original_bytes", original],
    ["omitted_bytes", omitted],
    ["notice", TRUNCATION_NOTICE],
  ]);
  const preview: JsonObject = new Map<string, JsonValue>([
    ["head", head],
    ["tail", tail],
  ]);
  return new Map<string, JsonValue>([
    ["truncation", truncation],
    ["preserved_fields", preserved],
    ["preview", preview],
  ]);
}
