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
 *
 * The wire forms of `run.status`, `tool_call.status` and `model.request` are stored as references to
 * their rows and rebuilt when read (`run-event-data.ts`).
 */

import type { CallRecord, ModelRequestRecord, NewRunEvent, RunRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { modelRequestReference, runStatusReference, toolCallReference } from "./run-event-data.js";

/** The `run.status` event of `run` as stored (a reference to the run: `run-event-data.ts`). */
export function runStatusEvent(run: RunRecord): NewRunEvent {
  return runStatusReference(run);
}

/** The `tool_call.status` event of `call` as stored (a reference to the call). */
export function toolCallEvent(call: CallRecord): NewRunEvent {
  return toolCallReference(call);
}

/** The `model.request` event of a recorded request (a reference to its row). */
export function modelRequestEvent(request: ModelRequestRecord): NewRunEvent {
  return modelRequestReference(request.request_id);
}

/**
 * Appends `items` to the run's history and a `history.item` event for each; answers their `seq`s.
 * `ready`: the items settle the turn the run waited for (it is marked ready for the turn engine).
 */
export async function appendHistory(
  stores: Stores,
  runId: string,
  items: readonly string[],
  nowMs: number,
  ready = false,
): Promise<number[]> {
  const seqs = await stores.history.append(runId, items, nowMs, ready ? nowMs : undefined);
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
