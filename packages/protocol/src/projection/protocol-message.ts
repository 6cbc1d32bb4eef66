/**
 * Projections of the protocol's own fixed messages (cancelled, expired, unknown outcome). They are
 * short and protected: never cut, whatever the budget, so the model always reads them whole.
 */

import { measure } from "../json/measure.js";
import type { PlainJsonObject } from "../json/value.js";
import { checkBudget } from "./budget.js";
import type { ContextPreview } from "./context-preview.js";

/** The preview of a fixed protocol message (`CANCELLED_RESULT`, `EXPIRED_RESULT`, …) under `budget`. */
export function projectProtocolMessage(message: Readonly<Record<string, string>>, budget: number): ContextPreview {
  checkBudget(budget);
  const result: PlainJsonObject = { ...message };
  const bytes = measure(result);
  return { max_result_context_bytes: budget, original_bytes: bytes, retained_bytes: bytes, truncated: false, result };
}
