/**
 * The cut of a plain JSON result that does not fit its budget (SPEC §3): a fixed envelope holding the
 * truncation facts, the preserved fields and a maximal head/tail preview of the compact text.
 *
 * `omitted_bytes` is inside the envelope, so its digit count changes the space left for the preview,
 * which changes `omitted_bytes`. Starting from the most digits it can have (those of
 * `original_bytes`) and shrinking, the digit count only falls, so the loop ends within a few rounds at
 * a cut whose own `omitted_bytes` has the digit count it was computed for.
 */

import { measure } from "../json/measure.js";
import type { JsonObject, JsonValue } from "../json/value.js";
import { TRUNCATION_NOTICE } from "./context-preview.js";
import { cutHeadTail } from "./head-tail.js";
import type { MeasuredResult } from "./measured-result.js";
import { collectPreservedFields } from "./preserved-fields.js";

/** The projected value of a plain JSON result over budget, and its measure. */
export function truncateJson(measured: MeasuredResult, budget: number): { result: JsonObject; bytes: number } {
  const preserved = collectPreservedFields(measured.value, Math.floor(budget / 4));
  const original = measured.bytes;
  let digits = String(original).length;
  for (;;) {
    const overhead = measure(envelope(original, 10 ** (digits - 1), preserved, "", ""));
    const cut = cutHeadTail(measured.compactText, budget - overhead);
    const omitted = original - cut.rawBytes;
    const omittedDigits = String(omitted).length;
    if (omittedDigits >= digits) {
      return {
        result: envelope(original, omitted, preserved, cut.head, cut.tail),
        bytes: overhead + cut.escapedBytes,
      };
    }
    digits = omittedDigits;
  }
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
