/**
 * Writing a run's event stream as server-sent events: every stored event after the client's
 * position (`id:` is the event's `seq`, so `Last-Event-ID` resumes exactly after what the client
 * saw), then new ones as commits announce them (`run-event-tails.ts`: one shared reader per run, no
 * polling), with a comment heartbeat after `heartbeatMs` of silence. The stream ends after the run's
 * terminal `run.status` event (at once when the client already saw it).
 *
 * What a stream holds is bounded: an event longer than MAX_EVENT_DATA_BYTES goes as a reference
 * (`event-reference.ts`); catching up reads a few events at a time and waits for the client to read
 * them; once caught up, a client that lets more than MAX_UNSENT_BYTES pile up is behind and its stream
 * ends (it resumes with `Last-Event-ID`).
 *
 * The stream only reads. A client closing it (the end user's browser going away) stops it and
 * nothing else: the run, its calls and its history are untouched — it is not a cancel, a detach, a
 * business cancel or a compensation.
 */

import { type RunStatus, TERMINAL_RUN_STATUSES } from "@toolhost/protocol";
import type { RunEventRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { MAX_EVENT_DATA_BYTES, referenceData } from "./event-reference.js";
import { eventsWithData } from "./run-event-data.js";
import type { RunEventTails, TailReader } from "./run-event-tails.js";

/** Events read per round trip while catching up (each at most MAX_EVENT_DATA_BYTES). */
const CATCH_UP_BATCH = 16;

/** Most bytes a caught-up stream lets wait for its client; beyond, the client is behind and the stream ends. */
export const MAX_UNSENT_BYTES = 256 * 1024;

/** Where the stream goes. */
export interface EventSink {
  /** Writes text; false when the client is not reading fast enough (wait for `drained`). */
  write(text: string): boolean;
  /** Resolves when the client has read what was written, or the stream closed. */
  drained(): Promise<void>;
  /** Bytes written and not yet handed to the operating system. */
  unsentBytes(): number;
  end(): void;
}

/** How a stream works. */
export interface EventStreamOptions {
  readonly heartbeatMs: number;
}

/** What a stream reads from. */
export interface EventStreamSources {
  readonly storage: Storage;
  readonly tails: RunEventTails;
}

/** Why a stream ended: the run ended, the client fell behind, or it was closed (client, shutdown, limit, revocation). */
export type StreamEnd = "run_ended" | "behind" | "closed";

/** The SSE frame of one event (a reference when it was read without its data). */
export function eventFrame(event: RunEventRecord): string {
  // Event data is compact JSON: it never holds a raw line break.
  return `id: ${event.seq}\nevent: ${event.kind}\ndata: ${event.data_json ?? referenceData(event)}\n\n`;
}

/** The comment line a heartbeat sends. */
export const HEARTBEAT = ": heartbeat\n\n";

function isTerminal(event: RunEventRecord): boolean {
  if (event.kind !== "run.status" || event.data_json === null) return false;
  const status = (JSON.parse(event.data_json) as { status: RunStatus }).status;
  return TERMINAL_RUN_STATUSES.has(status);
}

/**
 * Streams run `runId`'s events after `afterSeq` into `sink` until the run has ended, the client is
 * behind, or `closed` aborts; `runHadEnded` says the run was terminal before the stream began (so
 * every event it will ever have is stored). Rejects when storage fails (the client resumes).
 */
export async function streamRunEvents(
  sources: EventStreamSources,
  options: EventStreamOptions,
  runId: string,
  afterSeq: number,
  runHadEnded: boolean,
  sink: EventSink,
  closed: AbortSignal,
): Promise<StreamEnd> {
  let cursor = afterSeq;
  // Catching up, paced by the client: a batch at a time, each event released once written.
  for (;;) {
    const events = eventsWithData(
      await sources.storage.runEvents.listAfter(runId, cursor, CATCH_UP_BATCH, MAX_EVENT_DATA_BYTES),
      MAX_EVENT_DATA_BYTES,
    );
    const count = events.length;
    for (let event = events.shift(); event !== undefined; event = events.shift()) {
      if (closed.aborted) return "closed";
      if (!sink.write(eventFrame(event))) await sink.drained();
      cursor = event.seq;
      if (isTerminal(event)) {
        sink.end();
        return "run_ended";
      }
    }
    if (closed.aborted) return "closed";
    if (count < CATCH_UP_BATCH) break;
  }
  if (runHadEnded) {
    sink.end();
    return "run_ended";
  }
  return followTail(sources.tails, options, runId, cursor, sink, closed);
}

/** Follows the run's shared tail from `from`: writes what it hands over, never waiting for the client. */
function followTail(
  tails: RunEventTails,
  options: EventStreamOptions,
  runId: string,
  from: number,
  sink: EventSink,
  closed: AbortSignal,
): Promise<StreamEnd> {
  return new Promise<StreamEnd>((resolve, reject) => {
    let cursor = from;
    let done = false;
    let heartbeat: NodeJS.Timeout | undefined;
    const finish = (end: StreamEnd | Error): void => {
      if (done) return;
      done = true;
      clearTimeout(heartbeat);
      leave();
      closed.removeEventListener("abort", onClosed);
      if (end instanceof Error) {
        reject(end);
        return;
      }
      if (end !== "closed") sink.end();
      resolve(end);
    };
    const onClosed = (): void => finish("closed");
    /** Writes `text` unless the client is behind (then the stream ends); answers whether it was written. */
    const send = (text: string): boolean => {
      if (sink.unsentBytes() + Buffer.byteLength(text, "utf8") > MAX_UNSENT_BYTES) {
        finish("behind");
        return false;
      }
      sink.write(text);
      armHeartbeat();
      return true;
    };
    const armHeartbeat = (): void => {
      clearTimeout(heartbeat);
      heartbeat = setTimeout(() => {
        if (!done) send(HEARTBEAT);
      }, options.heartbeatMs);
    };
    const reader: TailReader = {
      get cursor() {
        return cursor;
      },
      deliver: (events) => {
        for (const event of events) {
          if (done) return;
          if (event.seq <= cursor) continue;
          // A gap: the read began after this reader's position; the tail reads again from it.
          if (event.seq !== cursor + 1) return;
          if (!send(eventFrame(event))) return;
          cursor = event.seq;
          if (isTerminal(event)) {
            finish("run_ended");
            return;
          }
        }
      },
      failed: (error) => finish(error instanceof Error ? error : new Error(String(error))),
    };
    const leave = tails.join(runId, reader);
    closed.addEventListener("abort", onClosed);
    if (closed.aborted) finish("closed");
    else armHeartbeat();
  });
}
