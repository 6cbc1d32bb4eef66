/** Between executor-area records and their wire shapes (times as ISO text). */

import type {
  CallReport,
  CancellationRequest,
  ExecutorConnection,
  PendingCall,
  ReportedCall,
} from "@toolhost/protocol/wire";
import { isoTime } from "../http/wire-time.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { CancellationRecord, CandidateCall, ReportFacts } from "../storage/storage.js";
import type { ReportDecision } from "./report-decision.js";

/** Most business cancellations one heartbeat or pending answer carries (oldest first; the rest follow). */
export const CANCELLATIONS_MAX = 100;

/** The connect answer for a stored executor. */
export function connectionWire(
  executor: ExecutorRecord,
  heartbeatIntervalMs: number,
  leaseTtlMs: number,
): ExecutorConnection {
  return {
    executor_id: executor.executor_id,
    connection_id: executor.connection_id,
    epoch: executor.epoch,
    heartbeat_interval_ms: heartbeatIntervalMs,
    lease_ttl_ms: leaseTtlMs,
    binding_ids: executor.binding_ids,
  };
}

/** A business-cancel request as the wire shows it. */
export function cancellationWire(record: CancellationRecord): CancellationRequest {
  return { run_id: record.run_id, call_id: record.call_id, requested_at: isoTime(record.requested_at_ms) };
}

/** A candidate as the wire shows it: IDs, tool, binding, time and the call's trace context, nothing else. */
export function candidateWire(call: CandidateCall): PendingCall {
  return {
    run_id: call.run_id,
    call_id: call.call_id,
    tool_name: call.tool_name,
    binding_id: call.binding_id,
    created_at: isoTime(call.created_at_ms),
    ...(call.trace_context === null ? {} : { traceparent: call.trace_context }),
  };
}

/** One call's report answer. */
export function callReportWire(
  reported: ReportedCall,
  facts: ReportFacts | undefined,
  decision: ReportDecision,
): CallReport {
  return {
    call_id: reported.call_id,
    run_id: facts?.call.run_id ?? null,
    status: facts?.call.status ?? null,
    run_status: facts?.run_status ?? null,
    receipt_ids: facts?.receipts.map((receipt) => receipt.receipt_id) ?? [],
    action: decision.action,
    reason: decision.reason,
  };
}
