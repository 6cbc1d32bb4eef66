/**
 * What a run's event stream records (`GET /v1/runs/{run_id}/events`): every flow of the runs area
 * that changes a run appends its events in the same transaction, under the run's lock, so the stream
 * is exactly the committed history of the run.
 *
 * - `run.status`: the run (its wire form) after each status change (without a long output or error:
 *   `event-reference.ts`);
 * - `history.item`: `{"seq":n,"item":<the item as stored>}` for each appended history item;
 * - `tool_call.status`: a call (its wire form) when it is created, settles, or is cancelled;
 * - `model.request`: each model request on record (its wire form).
 */

import type { CallRecord, ModelRequestRecord, NewRunEvent, RunRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { runStatusData } from "./event-reference.js";
import { modelRequestOf } from "./model-request-wire.js";
import { toolCallOf } from "./run-wire.js";

/** The `run.status` event of `run` as stored. */
export function runStatusEvent(run: RunRecord): NewRunEvent {
  return { kind: "run.status", data_json: runStatusData(run) };
}

/** The `tool_call.status` event of `call` as stored. */
export function toolCallEvent(call: CallRecord): NewRunEvent {
  return { kind: "tool_call.status", data_json: JSON.stringify(toolCallOf(call)) };
}

/** The `model.request` event of a recorded request. */
export function modelRequestEvent(request: ModelRequestRecord): NewRunEvent {
  return { kind: "model.request", data_json: JSON.stringify(modelRequestOf(request)) };
}

/** Appends `items` to the run's history and a `history.item` event for each; answers their `seq`s. */
export async function appendHistory(
  stores: Stores,
  runId: string,
  items: readonly string[],
  nowMs: number,
): Promise<number[]> {
  const seqs = await stores.history.append(runId, items, nowMs);
  await stores.runEvents.appendAtCommit(
    runId,
    seqs.map((seq) => ({ kind: "history.item", history_seq: seq })),
    nowMs,
  );
  return seqs;
}

/** Appends events to the run's stream (the caller holds the run's lock). */
export async function emitRunEvents(
  stores: Stores,
  runId: string,
  events: readonly NewRunEvent[],
  nowMs: number,
): Promise<void> {
  await stores.runEvents.appendAtCommit(runId, events, nowMs);
}
