/**
 * The records of one tool-calling model turn (pure): a call row per emitted call, the `tool_calls`
 * history item, and for each refused call its `tool_result` item. Accepted calls are `pending` with
 * the tool's binding, effect, budget and deadline. A refused call is stored `failed` at once (so the
 * tool-calls list shows it) with its `tool_result` already in history; it is never pending, so no
 * executor ever sees it. Creating a call is not a status change: the transition table starts after it.
 */

import { projectResult, RESULT_CONTEXT_BYTES, TOOL_EFFECTS } from "@toolhost/protocol";
import type { CallRecord } from "../storage/records.js";
import { pendingCallWakeups, type Wakeup } from "../wakeups/wakeup.js";
import { toolCallsItem, toolResultItem } from "./history-items.js";
import type { PlannedCall } from "./tool-call-plan.js";

/** The binding of a refused call whose tool does not exist (the column is not nullable). */
export const NO_BINDING = "";

/** What one tool-calling turn writes. */
export interface TurnRecords {
  calls: CallRecord[];
  /** History items to append, in order. */
  items: string[];
  /** One wake-up per pending call (to notify after the commit). */
  wakeups: Wakeup[];
}

/** The records of turn `turn` of run `runId`; `callIds[i]` is the ID of `planned[i]`. */
export function turnRecords(
  runId: string,
  turn: number,
  planned: readonly PlannedCall[],
  callIds: readonly string[],
  nowMs: number,
): TurnRecords {
  const calls = planned.map((call, position): CallRecord => {
    const callId = callIds[position];
    if (callId === undefined) throw new Error("a call ID per planned call is required");
    const refused = call.refusal !== undefined;
    return {
      call_id: callId,
      run_id: runId,
      turn,
      position,
      tool_name: call.name,
      binding_id: call.tool?.binding_id ?? NO_BINDING,
      effect: call.tool?.effect ?? TOOL_EFFECTS.write,
      max_result_context_bytes: call.tool?.max_result_context_bytes ?? RESULT_CONTEXT_BYTES.default,
      arguments_json: call.argumentsJson,
      arguments_digest: call.argumentsDigest,
      status: refused ? "failed" : "pending",
      executor_id: null,
      claim_id: null,
      grant_hash: null,
      claimed_at_ms: null,
      accept_deadline_ms: null,
      accepted_at_ms: null,
      settled_at_ms: refused ? nowMs : null,
      deadline_ms: refused || call.tool === undefined ? nowMs : nowMs + call.tool.timeout_ms,
      cancel_requested_at_ms: null,
      compensates: null,
      created_at_ms: nowMs,
      updated_at_ms: nowMs,
      // Set by the caller from the span it emits for the call (observability/call-tracing.ts).
      trace_context: null,
    };
  });
  const items = [
    toolCallsItem(
      calls.map((call, i) => ({
        call_id: call.call_id,
        name: call.tool_name,
        arguments: planned[i]?.arguments ?? null,
      })),
    ),
  ];
  planned.forEach((call, i) => {
    const record = calls[i];
    if (call.refusal === undefined || record === undefined) return;
    items.push(toolResultItem(record.call_id, null, projectResult(call.refusal.result, call.refusal.budget)));
  });
  const wakeups = pendingCallWakeups(calls);
  return { calls, items, wakeups };
}
