/**
 * `projectResult`: what the model sees of a tool result under its byte budget (docs/projection.md). Pure and
 * deterministic: the same result, budget and type always give the same bytes, so the preview the
 * dry-run shows is the one the run's history stores.
 */

import { measure } from "../json/measure.js";
import type { JsonValue } from "../json/value.js";
import { checkBudget } from "./budget.js";
import { type ContextPreview, UNKNOWN_OUTCOME_RESULT } from "./context-preview.js";
import { MeasuredResult } from "./measured-result.js";
import type { ResultType } from "./result-type.js";
import { truncateJson } from "./truncate-json.js";
import { multimodalParts, truncateMultimodal } from "./truncate-multimodal.js";

/** Projects a result (a value, or one already measured) to `budget` bytes for the model. */
export function projectResult(
  result: JsonValue | MeasuredResult,
  budget: number,
  resultType: ResultType = "json",
): ContextPreview {
  checkBudget(budget);
  const measured = result instanceof MeasuredResult ? result : MeasuredResult.of(result);
  const original = measured.bytes;
  const whole = (): ContextPreview => ({
    max_result_context_bytes: budget,
    original_bytes: original,
    retained_bytes: original,
    truncated: false,
    result: measured.value,
  });

  switch (resultType) {
    case "submission":
    case "opaque":
      return whole();
    case "multimodal": {
      const parts = multimodalParts(measured.value);
      const counted = original - parts.nonTextBytes;
      if (counted <= budget || parts.texts.length === 0) return whole();
      const projected = truncateMultimodal(parts, counted, budget);
      if (projected === measured.value) return whole();
      return {
        max_result_context_bytes: budget,
        original_bytes: original,
        retained_bytes: measure(projected),
        truncated: true,
        result: projected,
      };
    }
    default: {
      if (original <= budget) return whole();
      const cut = truncateJson(measured, budget);
      return {
        max_result_context_bytes: budget,
        original_bytes: original,
        retained_bytes: cut.bytes,
        truncated: true,
        result: cut.result,
      };
    }
  }
}

/** The projection of an unknown outcome (`reconciliation_required`): the fixed protocol message. */
export function projectUnknownOutcome(budget: number): ContextPreview {
  checkBudget(budget);
  const bytes = measure(UNKNOWN_OUTCOME_RESULT);
  return {
    max_result_context_bytes: budget,
    original_bytes: bytes,
    retained_bytes: bytes,
    truncated: false,
    result: { ...UNKNOWN_OUTCOME_RESULT },
  };
}
