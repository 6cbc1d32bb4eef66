/**
 * Domain events: what changed a call or an executor without a request asking for it (the sweeps, the
 * run driver). Each is logged once at `info` with the IDs an operator searches for, and counted in
 * `toolhost_domain_events_total`.
 */

import type { FastifyBaseLogger } from "fastify";
import type { ServerMetrics } from "./server-metrics.js";

/** The domain events, as they appear in logs (`event`) and metrics (label `event`). */
export const DOMAIN_EVENTS = {
  call_expired: "call_expired",
  lease_lapsed: "lease_lapsed",
  claim_released: "claim_released",
  reconciliation_required: "reconciliation_required",
  compaction: "compaction",
  run_deleted: "run_deleted",
  statistics_refreshed: "statistics_refreshed",
} as const;

/** One domain event name. */
export type DomainEvent = keyof typeof DOMAIN_EVENTS;

/** A call an event is about. */
export interface EventCall {
  readonly run_id: string;
  readonly call_id: string;
  readonly binding_id?: string;
}

/** Logs and counts domain events. */
export class DomainEvents {
  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly metrics: ServerMetrics,
  ) {}

  /** A pending or claimed call passed its deadline without running. */
  callExpired(call: EventCall): void {
    this.emit("call_expired", "tool call expired: its deadline passed before it was accepted", callFields(call));
  }

  /** An accepted call passed its deadline without a final receipt: the product must reconcile it. */
  reconciliationRequired(call: EventCall): void {
    this.emit(
      "reconciliation_required",
      "tool call needs reconciliation: accepted but no final receipt before its deadline",
      callFields(call),
    );
  }

  /** An executor connection stopped heartbeating and was taken offline. */
  leaseLapsed(executorId: string, connectionId: string): void {
    this.emit("lease_lapsed", "executor lease lapsed: connection taken offline", {
      executor_id: executorId,
      connection_id: connectionId,
    });
  }

  /** A claim went back to pending (accept window lapsed, or its executor went offline). */
  claimReleased(call: EventCall, reason: "accept_window_lapsed" | "executor_offline"): void {
    this.emit("claim_released", "claim released: the call is pending again", { ...callFields(call), reason });
  }

  /** A run's oldest turns were summarised to fit the model's context window. */
  compaction(runId: string, turn: number): void {
    this.emit("compaction", "run history compacted to fit the context window", { run_id: runId, turn });
  }

  /** The retention sweep deleted ended runs with all their rows (counted once per run, logged once per batch). */
  runsDeleted(runIds: readonly string[]): void {
    this.emit(
      "run_deleted",
      "ended runs deleted by retention",
      { runs: runIds.length, run_ids: runIds },
      runIds.length,
    );
  }

  /** Planner statistics of hot tables were missing or stale and were refreshed (PostgreSQL). */
  statisticsRefreshed(tables: readonly string[]): void {
    this.emit("statistics_refreshed", "planner statistics refreshed", { tables }, tables.length);
  }

  private emit(event: DomainEvent, message: string, fields: Record<string, unknown>, count = 1): void {
    this.metrics.domainEvents.inc({ event }, count);
    this.log.info({ event, ...fields }, message);
  }
}

function callFields(call: EventCall): Record<string, unknown> {
  return {
    run_id: call.run_id,
    call_id: call.call_id,
    ...(call.binding_id === undefined ? {} : { binding_id: call.binding_id }),
  };
}
