/**
 * Writing a run's event stream as server-sent events: every stored event after the client's
 * position (`id:` is the event's `seq`, so `Last-Event-ID` resumes exactly after what the client
 * saw), then new ones as they are committed by any instance — looked for every `pollIntervalMs` —
 * with a comment heartbeat after `heartbeatMs` of silence. The stream ends
 * after the run's terminal `run.status` event (at once when the client already saw it).
 *
 * The stream only reads. A client closing it (the end user's browser going away) stops the loop and
 * nothing else: the run, its calls and its history are untouched — it is not a cancel, a detach, a
 * business cancel or a compensation.
 */

import { type RunStatus, TERMINAL_RUN_STATUSES } from "@toolhost/protocol";
import type { RunEventRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";

/** Events read per round trip. */
const BATCH = 100;

/** Where the stream goes. */
export interface EventSink {
  /** Writes text; false when the client is not reading fast enough (wait for `drained`). */
  write(text: string): boolean;
  /** Resolves when the client has read what was written, or the stream closed. */
  drained(): Promise<void>;
  end(): void;
}

/** How a stream works. */
export interface EventStreamOptions {
  readonly heartbeatMs: number;
  readonly pollIntervalMs: number;
}

/** The SSE frame of one event. */
export function eventFrame(event: RunEventRecord): string {
  // Event data is compact JSON: it never holds a raw line break.
  return `id: ${event.seq}\nevent: ${event.kind}\ndata: ${event.data_json}\n\n`;
}

/** The comment line a heartbeat sends. */
export const HEARTBEAT = ": heartbeat\n\n";

function isTerminal(event: RunEventRecord): boolean {
  if (event.kind !== "run.status") return false;
  const status = (JSON.parse(event.data_json) as { status: RunStatus }).status;
  return TERMINAL_RUN_STATUSES.has(status);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/** Streams run `runId`'s events after `afterSeq` into `sink` until the run has ended or `closed` aborts. */
export async function streamRunEvents(
  storage: Storage,
  options: EventStreamOptions,
  runId: string,
  afterSeq: number,
  sink: EventSink,
  closed: AbortSignal,
): Promise<void> {
  let cursor = afterSeq;
  let lastWriteMs = Date.now();
  while (!closed.aborted) {
    const events = await storage.runEvents.listAfter(runId, cursor, BATCH);
    for (const event of events) {
      if (closed.aborted) return;
      if (!sink.write(eventFrame(event))) await sink.drained();
      lastWriteMs = Date.now();
      cursor = event.seq;
      if (isTerminal(event)) {
        sink.end();
        return;
      }
    }
    if (events.length === BATCH) continue;
    if (events.length === 0) {
      // The terminal event is committed with the terminal status: a run that has ended shows nothing new.
      const run = await storage.runs.get(runId, "*");
      if (run === undefined || TERMINAL_RUN_STATUSES.has(run.status)) {
        sink.end();
        return;
      }
    }
    const untilHeartbeat = options.heartbeatMs - (Date.now() - lastWriteMs);
    if (untilHeartbeat <= 0) {
      if (!sink.write(HEARTBEAT)) await sink.drained();
      lastWriteMs = Date.now();
      continue;
    }
    await pause(Math.min(options.pollIntervalMs, untilHeartbeat), closed);
  }
}
