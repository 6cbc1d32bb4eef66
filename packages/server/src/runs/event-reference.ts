/**
 * Large events as references (pure): an event stream never sends an event whose data is longer than
 * MAX_EVENT_DATA_BYTES. A `history.item` that large (a multi-MiB run input, a big tool result) is sent
 * as `{"seq":n,"ref":{"bytes":…,"href":…}}`, the link reading exactly that item from the history
 * route; a `run.status` that large (a long output) is stored without its `output` and `error`, with a
 * `ref` to the run. So what a stream holds per event is bounded, whoever reads it.
 */

import { encodeNumberCursor } from "../storage/page-cursor.js";
import type { RunEventRecord } from "../storage/records.js";
import { type RunWireFacts, runOf } from "./run-wire.js";

/** Longest event data sent inline on a stream (bytes of compact UTF-8 JSON); longer goes as a reference. */
export const MAX_EVENT_DATA_BYTES = 64 * 1024;

/** Where a reference points: the URL path to read, and how long what it answers is. */
export interface EventReference {
  readonly bytes: number;
  readonly href: string;
}

/** The path of the history page holding exactly item `seq` of `runId`. */
export function historyItemHref(runId: string, seq: number): string {
  // The history list's own cursor (the list is named "history"): the page after item seq - 1.
  const cursor = encodeNumberCursor("history", seq - 1);
  return `/v1/runs/${encodeURIComponent(runId)}/history?limit=1&cursor=${cursor}`;
}

/** The data sent for an event read without its data (it was longer than MAX_EVENT_DATA_BYTES). */
export function referenceData(event: RunEventRecord): string {
  if (event.kind === "history.item" && event.history_seq !== null) {
    const ref: EventReference = { bytes: event.data_bytes, href: historyItemHref(event.run_id, event.history_seq) };
    return JSON.stringify({ seq: event.history_seq, ref });
  }
  // Only rows stored before run.status data was capped get here; the run itself has everything.
  const ref: EventReference = { bytes: event.data_bytes, href: `/v1/runs/${encodeURIComponent(event.run_id)}` };
  return JSON.stringify({ ref });
}

/** The data of a `run.status` event: the run's wire form, or when that is too long, without `output` and `error`. */
export function runStatusData(run: RunWireFacts): string {
  const wire = runOf(run);
  const full = JSON.stringify(wire);
  const bytes = Buffer.byteLength(full, "utf8");
  if (bytes <= MAX_EVENT_DATA_BYTES) return full;
  const { output: _output, error: _error, ...rest } = wire;
  const ref: EventReference = { bytes, href: `/v1/runs/${encodeURIComponent(run.run_id)}` };
  return JSON.stringify({ ...rest, ref });
}
