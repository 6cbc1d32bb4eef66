/** Which run and call statuses are still moving (the pages poll while something is). */

import type { Run, ToolCall } from "@toolhost/protocol/wire";

const ENDED_RUN = new Set(["completed", "failed", "cancelled", "expired"]);
const FINAL_CALL = new Set(["completed", "failed", "cancelled", "expired"]);

/** True once the run has a terminal status. */
export function runEnded(run: Run): boolean {
  return ENDED_RUN.has(run.status);
}

/** True while the run, or one of its calls (a compensation, an accepted call), may still change. */
export function runMoving(run: Run, calls: readonly ToolCall[]): boolean {
  return !runEnded(run) || calls.some((call) => !FINAL_CALL.has(call.status));
}
