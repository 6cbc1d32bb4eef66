/**
 * Stored runs, calls and history as the wire shows them. History pages are written as text: the
 * stored item texts are concatenated as they are, never parsed and re-serialised, so every byte the
 * model's history holds (big integers, key order, non-ASCII text) reaches the client unchanged.
 */

import { quoteString } from "@toolhost/protocol";
import type { CallCancelRequested, Run, ToolCall } from "@toolhost/protocol/wire";
import { isoTime } from "../http/wire-time.js";
import type { CallRecord, HistoryItemRecord, Page, RunRecord } from "../storage/records.js";
import { MAX_CALLS_PER_TURN } from "./run-limits.js";
import { NO_BINDING } from "./turn-records.js";

/** The columns of a run its wire form shows. */
export type RunWireFacts = Pick<
  RunRecord,
  | "run_id"
  | "session_id"
  | "agent_id"
  | "agent_version"
  | "status"
  | "output"
  | "error_json"
  | "created_at_ms"
  | "updated_at_ms"
  | "ended_at_ms"
>;

/** The columns of a call its wire form shows. */
export type CallWireFacts = Pick<
  CallRecord,
  | "call_id"
  | "run_id"
  | "turn"
  | "position"
  | "tool_name"
  | "binding_id"
  | "effect"
  | "status"
  | "executor_id"
  | "claim_id"
  | "claimed_at_ms"
  | "accepted_at_ms"
  | "compensates"
  | "arguments_digest"
  | "cancel_requested_at_ms"
  | "deadline_ms"
  | "created_at_ms"
  | "updated_at_ms"
  | "settled_at_ms"
>;

/** The wire form of a stored run (members in the schema's order; absent facts left out). */
export function runOf(run: RunWireFacts): Run {
  return {
    run_id: run.run_id,
    session_id: run.session_id,
    agent_id: run.agent_id,
    agent_version: run.agent_version,
    status: run.status,
    ...(run.output === null ? {} : { output: run.output }),
    ...(run.error_json === null ? {} : { error: JSON.parse(run.error_json) as NonNullable<Run["error"]> }),
    created_at: isoTime(run.created_at_ms),
    updated_at: isoTime(run.updated_at_ms),
    ...(run.ended_at_ms === null ? {} : { ended_at: isoTime(run.ended_at_ms) }),
  };
}

/**
 * Why the server refused a call, read from its row: only a refused call is `failed` without ever
 * having been accepted (a `failed` receipt needs an accepted call), only a call past the turn's limit
 * sits at a position of MAX_CALLS_PER_TURN or more, and only an unknown tool has no binding.
 */
function rejectionOf(call: CallWireFacts): ToolCall["rejected"] {
  if (call.status !== "failed" || call.accepted_at_ms !== null || call.claimed_at_ms !== null) return undefined;
  if (call.compensates === null && call.position >= MAX_CALLS_PER_TURN) return "too_many_calls";
  return call.binding_id === NO_BINDING ? "unknown_tool" : "invalid_arguments";
}

/** The wire form of a stored call (members in the schema's order; absent facts left out). */
export function toolCallOf(call: CallWireFacts): ToolCall {
  const rejected = rejectionOf(call);
  return {
    call_id: call.call_id,
    run_id: call.run_id,
    ...(call.compensates === null ? { turn: call.turn } : {}),
    tool_name: call.tool_name,
    ...(call.binding_id === NO_BINDING ? {} : { binding_id: call.binding_id }),
    effect: call.effect,
    status: call.status,
    ...(rejected === undefined ? {} : { rejected }),
    ...(call.executor_id === null ? {} : { executor_id: call.executor_id }),
    ...(call.claim_id === null ? {} : { claim_id: call.claim_id }),
    ...(call.claimed_at_ms === null ? {} : { claimed_at: isoTime(call.claimed_at_ms) }),
    ...(call.accepted_at_ms === null ? {} : { accepted_at: isoTime(call.accepted_at_ms) }),
    ...(call.compensates === null ? {} : { compensates: call.compensates }),
    arguments_digest: call.arguments_digest,
    ...(call.cancel_requested_at_ms === null ? {} : { cancel_requested_at: isoTime(call.cancel_requested_at_ms) }),
    deadline: isoTime(call.deadline_ms),
    created_at: isoTime(call.created_at_ms),
    updated_at: isoTime(call.updated_at_ms),
    ...(call.settled_at_ms === null ? {} : { settled_at: isoTime(call.settled_at_ms) }),
  };
}

/** The business-cancel answer for a call after the request. */
export function cancelRequestedOf(call: CallRecord): CallCancelRequested {
  return { call_id: call.call_id, status: call.status, cancel_requested: true };
}

/** `{"data":[item,…],"next_cursor":…}` with each item's stored text inserted verbatim. */
export function historyPageText(page: Page<HistoryItemRecord>): string {
  const cursor = page.next_cursor === null ? "null" : quoteString(page.next_cursor);
  return `{"data":[${page.items.map((item) => item.item_json).join(",")}],"next_cursor":${cursor}}`;
}
