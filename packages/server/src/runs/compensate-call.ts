/**
 * Compensation (`POST /v1/runs/{run_id}/tool-calls/{call_id}/compensate`): a new call of a
 * compensating tool, linked to the completed write call it undoes by `compensates`. Never automatic
 * and never changing the original call or the run's history; it is not part of any model turn
 * (turn -1), stays claimable after the run ended, and runs through the same claim and receipt
 * protocol as any call. The caller notifies the tool's binding after the commit.
 */

import {
  argumentsDigest,
  compact,
  type JsonValue,
  ProtocolError,
  type ToolDefinition,
  validateArguments,
} from "@toolhost/protocol";
import { notFoundError } from "../auth/id-scope.js";
import { newId } from "../ids.js";
import { traceNewCalls } from "../observability/call-tracing.js";
import type { CallRecord, IdScope } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { callWakeup } from "../wakeups/wakeup.js";
import { CALL_ID_PREFIX } from "./model-turns.js";
import { loadRunTools } from "./run-tools.js";

/** The turn number of compensation calls: they belong to no model turn. */
export const COMPENSATION_TURN = -1;

/** The compensating tool for `original`, or the error to answer (pure). */
export function decideCompensation(
  original: CallRecord,
  tools: readonly ToolDefinition[],
  toolName: string,
  args: JsonValue,
): ToolDefinition {
  if (original.status !== "completed" || original.effect !== "write") {
    throw new ProtocolError(
      "not_compensable",
      `tool call ${JSON.stringify(original.call_id)} is a ${original.status} ${original.effect} call; only a completed write call can be compensated`,
      undefined,
      { status: original.status, effect: original.effect },
    );
  }
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (tool === undefined) {
    throw new ProtocolError(
      "unknown_reference",
      `the run's toolset has no tool named ${JSON.stringify(toolName)}`,
      "/tool_name",
      { kind: "tool", tools: tools.map((candidate) => candidate.name) },
    );
  }
  const validation = validateArguments(tool.input_schema, args);
  const [first] = validation.errors;
  if (first !== undefined) {
    throw new ProtocolError(
      "validation_failed",
      `the arguments do not match the input schema of ${JSON.stringify(toolName)}: ${first.message}`,
      `/arguments${first.pointer}`,
      // Pointers into the body: the argument errors point into `arguments`.
      { errors: validation.errors.map((error) => ({ pointer: `/arguments${error.pointer}`, message: error.message })) },
    );
  }
  return tool;
}

/** The compensation call record (pure). */
export function compensationRecord(
  original: CallRecord,
  tool: ToolDefinition,
  args: JsonValue,
  callId: string,
  nowMs: number,
): CallRecord {
  return {
    call_id: callId,
    run_id: original.run_id,
    turn: COMPENSATION_TURN,
    position: 0,
    tool_name: tool.name,
    binding_id: tool.binding_id,
    effect: tool.effect,
    max_result_context_bytes: tool.max_result_context_bytes,
    arguments_json: compact(args),
    arguments_digest: argumentsDigest(args),
    status: "pending",
    executor_id: null,
    claim_id: null,
    grant_hash: null,
    claimed_at_ms: null,
    accept_deadline_ms: null,
    accepted_at_ms: null,
    settled_at_ms: null,
    deadline_ms: nowMs + tool.timeout_ms,
    cancel_requested_at_ms: null,
    compensates: original.call_id,
    created_at_ms: nowMs,
    updated_at_ms: nowMs,
    trace_context: null,
  };
}

/** Creates a compensation call for call `callId` of run `runId` (in `scope`); `args` lossless. */
export async function compensateCall(
  storage: Storage,
  runId: string,
  callId: string,
  scope: IdScope,
  toolName: string,
  args: JsonValue,
  nowMs: number,
): Promise<CallRecord> {
  return storage.transaction(async (stores) => {
    const run = await stores.runs.get(runId, scope);
    if (run === undefined) throw notFoundError("run", runId);
    const original = await stores.calls.get(runId, callId);
    if (original === undefined) throw notFoundError("tool call", callId);
    const { tools } = await loadRunTools(stores, run.agent_version);
    const tool = decideCompensation(original, tools, toolName, args);
    const [record] = traceNewCalls([compensationRecord(original, tool, args, newId(CALL_ID_PREFIX, nowMs), nowMs)]);
    if (record === undefined) throw new Error("traceNewCalls answers one call per call");
    await stores.calls.insertMany([record]);
    stores.afterCommit.wakeExecutors([callWakeup(record)]);
    return record;
  });
}
