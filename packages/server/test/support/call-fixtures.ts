/**
 * Runtime records for claim and receipt storage tests: one published agent version with a session, and
 * builders for runs, calls, receipts and executor connections, written straight to storage.
 */

import { createHash } from "node:crypto";
import { argumentsDigest } from "@toolhost/protocol";
import type { CallRecord, ReceiptRecord, RunRecord } from "../../src/storage/records.js";
import type { Storage } from "../../src/storage/storage.js";
import {
  agentRecord,
  agentVersionInput,
  bindingRecord,
  sessionRecord,
  toolsetRecords,
  toolsJson,
} from "./storage-fixtures.js";

/** What `publishRuntime` stored. */
export interface RuntimeFixture {
  readonly agentId: string;
  readonly agentVersion: string;
  readonly sessionId: string;
  readonly toolsetId: string;
  readonly bindingIds: readonly string[];
}

/** Stores bindings b1 and b2, a toolset, an agent with one version and a session. */
export async function publishRuntime(storage: Storage): Promise<RuntimeFixture> {
  const bindingIds = ["b1", "b2"];
  for (const bindingId of bindingIds) await storage.bindings.insert(bindingRecord(bindingId));
  const [toolset, version] = toolsetRecords("ts1", 1_000, toolsJson(bindingIds));
  await storage.toolsets.insert(toolset, version);
  await storage.agents.insert(agentRecord("a1"));
  await storage.agents.appendVersion(agentVersionInput("a1", "agv1", "ts1", 1));
  await storage.sessions.insert(sessionRecord("s1", "a1", "agv1"));
  return { agentId: "a1", agentVersion: "agv1", sessionId: "s1", toolsetId: "ts1", bindingIds };
}

/** A run of the fixture's session. */
export function runRecord(runId: string, overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: runId,
    session_id: "s1",
    agent_id: "a1",
    agent_version: "agv1",
    subject: "user-s1",
    status: "waiting_for_tools",
    input_json: '{"ask":"x"}',
    turn: 1,
    output: null,
    error_json: null,
    history_length: 0,
    created_at_ms: 5_000,
    updated_at_ms: 5_000,
    ended_at_ms: null,
    max_turns: 100,
    max_tool_calls: 500,
    tool_call_count: 0,
    deadline_ms: 3_605_000,
    ...overrides,
  };
}

/** A pending call of `runId` on binding b1, deadline at 100 000 ms. */
export function callRecord(runId: string, callId: string, overrides: Partial<CallRecord> = {}): CallRecord {
  const args = '{"q":"x"}';
  return {
    call_id: callId,
    run_id: runId,
    turn: 0,
    position: 0,
    tool_name: "tool_0",
    binding_id: "b1",
    effect: "write",
    max_result_context_bytes: 4096,
    arguments_json: args,
    arguments_digest: argumentsDigest(JSON.parse(args)),
    status: "pending",
    executor_id: null,
    claim_id: null,
    grant_hash: null,
    claimed_at_ms: null,
    accept_deadline_ms: null,
    accepted_at_ms: null,
    settled_at_ms: null,
    deadline_ms: 100_000,
    cancel_requested_at_ms: null,
    compensates: null,
    created_at_ms: 6_000,
    updated_at_ms: 6_000,
    trace_context: null,
    ...overrides,
  };
}

/** A receipt record of `callId` (run r1). */
export function receiptRecord(
  callId: string,
  receiptId: string,
  seq: number,
  overrides: Partial<ReceiptRecord> = {},
): ReceiptRecord {
  return {
    call_id: callId,
    receipt_id: receiptId,
    seq,
    run_id: "r1",
    kind: "progress",
    executor_id: "e1",
    claim_id: "clm1",
    body_text: `{"receipt_id":"${receiptId}"}`,
    body_digest: `sha256:${createHash("sha256").update(receiptId).digest("hex")}`,
    answer_json: '{"applied":true}',
    applied: true,
    created_at_ms: 7_000,
    ...overrides,
  };
}

/** Connects executor `executorId` with connection `connectionId` on `bindingIds`, leased until `leaseExpiresMs`. */
export async function connectExecutor(
  storage: Storage,
  executorId: string,
  connectionId: string,
  bindingIds: readonly string[] = ["b1"],
  leaseExpiresMs = 1_000_000,
): Promise<void> {
  await storage.executors.connect({
    executor_id: executorId,
    connection_id: connectionId,
    binding_ids: bindingIds,
    key_id: "k1",
    now_ms: 1_000,
    lease_expires_ms: leaseExpiresMs,
  });
}
