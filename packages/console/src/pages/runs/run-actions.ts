/**
 * When each operator action applies (docs/runs.md, "Run cancel, business cancel and compensation"):
 * a run cancel while the run has not ended; a business cancel while the call is not final; a
 * compensation for a completed call of a write tool.
 */

import type { Run, ToolCall } from "@toolhost/protocol/wire";
import { runEnded } from "./run-status.js";

const FINAL_CALL = new Set(["completed", "failed", "cancelled", "expired"]);

/** True while `POST /v1/runs/{run_id}/cancel` can cancel the run (else 409 `run_terminated`). */
export function runCancellable(run: Run): boolean {
  return !runEnded(run);
}

/** True while a business cancel can ask the call to stop (else 409 `call_already_final`). */
export function callCancellable(call: ToolCall): boolean {
  return !FINAL_CALL.has(call.status);
}

/** True when the call can be compensated (else 409 `not_compensable`). */
export function callCompensable(call: ToolCall): boolean {
  return call.status === "completed" && call.effect === "write";
}
