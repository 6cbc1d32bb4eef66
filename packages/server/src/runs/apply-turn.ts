/**
 * Recording what one model turn decided (inside the transaction that holds the run's lock), whoever
 * answered: a final message completes the run, a failure fails it, tool calls become call rows and
 * history items (refused ones answered at once) — unless they would take the run past its
 * `max_tool_calls`, which fails it. The run is stored with its new status; when every call was
 * refused nothing is left to wait for, and the caller starts the next turn.
 */

import type { ToolDefinition } from "@toolhost/protocol";
import { newId } from "../ids.js";
import type { ModelTurn, RunFailure } from "../models/model-turn.js";
import { traceNewCalls, traceSettledCalls } from "../observability/call-tracing.js";
import type { RunRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { decided } from "./decided-turn.js";
import { messageItem } from "./history-items.js";
import { planToolCallsYielding } from "./plan-tool-calls-yielding.js";
import { appendHistory, emitRunEvents, toolCallEvent } from "./run-events.js";
import { toolCallLimitFailure } from "./run-limits.js";
import type { RunMover } from "./run-mover.js";
import { turnRecords } from "./turn-records.js";

/** Prefix of server-made call IDs. */
export const CALL_ID_PREFIX = "call";

/** Where a recorded decision left the run. */
export interface AppliedTurn {
  /** The run as stored. */
  run: RunRecord;
  /** True when every call was refused: the next turn follows at once. */
  next: boolean;
}

/** Ends the run `failed` with `error`. */
export async function failRun(mover: RunMover, error: RunFailure, nowMs: number): Promise<RunRecord> {
  mover.move("fail");
  return mover.save({ error_json: JSON.stringify(error), ended_at_ms: nowMs });
}

/** Records `decision`, the answer of turn `index` of the run `mover` holds (status `running`). */
export async function applyTurn(
  stores: Stores,
  mover: RunMover,
  index: number,
  decision: ModelTurn,
  tools: readonly ToolDefinition[],
  nowMs: number,
): Promise<AppliedTurn> {
  const runId = mover.run.run_id;
  if (decision.kind === "message") {
    await appendHistory(stores, runId, [messageItem(decision.text)], nowMs);
    mover.move("complete");
    const run = await mover.save({ output: decision.text, ended_at_ms: nowMs });
    return { run, next: false };
  }
  if (decision.kind === "fail") return { run: await failRun(mover, decision.error, nowMs), next: false };
  // Over the run's max_tool_calls nothing of the turn is kept: the run fails (docs/runs.md#limits).
  const overLimit = toolCallLimitFailure(mover.run, decision.calls.length);
  if (overLimit !== undefined) return { run: await failRun(mover, overLimit, nowMs), next: false };
  // Checked one call at a time, handing the event loop back in between (docs/configuration.md limits).
  const plan = await decided(async () => {
    const planned = await planToolCallsYielding(decision.calls, tools);
    return { kind: "planned" as const, planned };
  });
  if (plan.kind === "fail") return { run: await failRun(mover, plan.error, nowMs), next: false };
  const { planned } = plan;
  const records = turnRecords(
    runId,
    index,
    planned,
    planned.map(() => newId(CALL_ID_PREFIX, nowMs)),
    nowMs,
  );
  // Each call's span is a child of this turn's; its context is stored with the call (docs/operations.md#traces).
  const calls = traceNewCalls(records.calls);
  await stores.calls.insertMany(calls);
  traceSettledCalls(calls.filter((call) => call.status !== "pending"));
  await emitRunEvents(stores, runId, calls.map(toolCallEvent), nowMs);
  await appendHistory(stores, runId, records.items, nowMs);
  mover.move("await_tools");
  const run = await mover.save({ tool_call_count: mover.run.tool_call_count + planned.length });
  // Executors waiting on the calls' bindings wake once the turn is committed.
  stores.afterCommit.wakeExecutors(records.wakeups);
  return { run, next: records.wakeups.length === 0 };
}
