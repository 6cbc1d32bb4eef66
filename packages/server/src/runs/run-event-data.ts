/**
 * Run events stored as references (pure): a `run.status`, `tool_call.status` or `model.request`
 * event stores the ID of its run, call or model request and a snapshot of only the columns of that
 * row which change later and which its wire form shows (a model request's row never changes: no
 * snapshot). Reading joins the row in (`run-event-store.ts`) and rebuilds here the wire form the
 * event held when it was appended — byte for byte `JSON.stringify` of the same wire function over
 * the same facts, since the row's other columns never change.
 */

import type {
  CallRecord,
  NewRunEvent,
  RunEventRecord,
  RunEventSource,
  RunRecord,
  StoredRunEvent,
} from "../storage/records.js";
import { runStatusData } from "./event-reference.js";
import { modelRequestOf } from "./model-request-wire.js";
import { toolCallOf } from "./run-wire.js";

/** What a `run.status` event's wire form shows of the run's changing columns, as they were. */
type RunSnapshot = Pick<RunRecord, "status" | "output" | "error_json" | "updated_at_ms" | "ended_at_ms">;

/** What a `tool_call.status` event's wire form shows of the call's changing columns, as they were. */
type CallSnapshot = Pick<
  CallRecord,
  | "status"
  | "executor_id"
  | "claim_id"
  | "claimed_at_ms"
  | "accepted_at_ms"
  | "cancel_requested_at_ms"
  | "settled_at_ms"
  | "updated_at_ms"
>;

const RUN_SNAPSHOT_KEYS = [
  "status",
  "output",
  "error_json",
  "updated_at_ms",
  "ended_at_ms",
] as const satisfies readonly (keyof RunSnapshot)[];

const CALL_SNAPSHOT_KEYS = [
  "status",
  "executor_id",
  "claim_id",
  "claimed_at_ms",
  "accepted_at_ms",
  "cancel_requested_at_ms",
  "settled_at_ms",
  "updated_at_ms",
] as const satisfies readonly (keyof CallSnapshot)[];

// The wire functions take exactly the columns they read (RunWireFacts, CallWireFacts): a column added
// there and to neither the facts (never changing) nor the snapshot fails to compile in referencedData.

/** `keys` of `record` as compact JSON, null members left out (read back as null). */
function snapshotOf<K extends string>(record: Record<K, unknown>, keys: readonly K[]): string {
  const kept: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== null) kept[key] = record[key];
  return JSON.stringify(kept);
}

/** `keys` of a stored snapshot, absent members as null. */
function readSnapshot<K extends string>(snapshotJson: string, keys: readonly K[]): Record<K, unknown> {
  const stored = JSON.parse(snapshotJson) as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, stored[key] ?? null])) as Record<K, unknown>;
}

/** The `run.status` event of `run` as stored: the run's ID and the changing columns its wire form shows. */
export function runStatusReference(run: RunRecord): NewRunEvent {
  return { kind: "run.status", ref_id: run.run_id, snapshot_json: snapshotOf(run, RUN_SNAPSHOT_KEYS) };
}

/** The `tool_call.status` event of `call` as stored: the call's ID and the changing columns its wire form shows. */
export function toolCallReference(call: CallRecord): NewRunEvent {
  return { kind: "tool_call.status", ref_id: call.call_id, snapshot_json: snapshotOf(call, CALL_SNAPSHOT_KEYS) };
}

/** The `model.request` event of a recorded request as stored: its ID (the row never changes). */
export function modelRequestReference(requestId: string): NewRunEvent {
  return { kind: "model.request", ref_id: requestId, snapshot_json: null };
}

/** The wire data an event stored as a reference held when it was appended. */
export function referencedData(source: RunEventSource): string {
  switch (source.kind) {
    case "run.status":
      return runStatusData({
        ...source.run,
        ...(readSnapshot(source.snapshot_json, RUN_SNAPSHOT_KEYS) as RunSnapshot),
      });
    case "tool_call.status":
      return JSON.stringify(
        toolCallOf({ ...source.call, ...(readSnapshot(source.snapshot_json, CALL_SNAPSHOT_KEYS) as CallSnapshot) }),
      );
    case "model.request":
      return JSON.stringify(modelRequestOf(source.request));
  }
}

/**
 * The events with the data of those stored as references rebuilt; one whose data is longer than
 * `maxDataBytes` comes without it (`data_json` null), as the store leaves the others.
 */
export function eventsWithData(events: readonly StoredRunEvent[], maxDataBytes: number): RunEventRecord[] {
  return events.map(({ source, ...event }) => {
    if (source === null) return event;
    const data = referencedData(source);
    const bytes = Buffer.byteLength(data, "utf8");
    return { ...event, data_json: bytes <= maxDataBytes ? data : null, data_bytes: bytes };
  });
}
