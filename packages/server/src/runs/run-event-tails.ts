/**
 * One shared reader per run, fanned out to that run's open streams. A stream that has caught up
 * joins its run's tail; the tail watches the run's wake-ups (`run-event-wakeups.ts`) and, when a
 * commit announces new events, reads them once and hands them to every stream of the run. Between
 * wake-ups nothing runs: a stream on an idle run costs no query. Handing over never waits for a
 * client: a stream whose client does not keep up ends itself (`event-stream.ts`).
 */

import type { RunEventRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { MAX_EVENT_DATA_BYTES } from "./event-reference.js";
import { eventsWithData } from "./run-event-data.js";
import type { RunEventWakeups } from "./run-event-wakeups.js";

/** Events read per round trip by a tail. */
const TAIL_BATCH = 100;

/** A stream following a run's tail. */
export interface TailReader {
  /** The `seq` of the last event it has: the tail reads after the smallest one. */
  readonly cursor: number;
  /** New events, oldest first (may repeat ones it has); must not wait. */
  deliver(events: readonly RunEventRecord[]): void;
  /** The shared read failed: the stream ends (its client resumes). */
  failed(error: unknown): void;
}

/** The tail of one run: its readers and its one read at a time. */
class RunTail {
  readonly readers = new Set<TailReader>();
  #reading = false;
  #again = false;
  readonly #stopWatching: () => void;

  constructor(
    private readonly storage: Storage,
    private readonly runId: string,
    wakeups: RunEventWakeups,
  ) {
    this.#stopWatching = wakeups.watch(runId, () => this.wake());
  }

  /** Reads what was committed since the readers' cursors (once more after a read in progress). */
  wake(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    void this.#read();
  }

  close(): void {
    this.#stopWatching();
  }

  async #read(): Promise<void> {
    this.#reading = true;
    try {
      do {
        this.#again = false;
        if (this.readers.size === 0) return;
        let from = Math.min(...[...this.readers].map((reader) => reader.cursor));
        for (;;) {
          const events = eventsWithData(
            await this.storage.runEvents.listAfter(this.runId, from, TAIL_BATCH, MAX_EVENT_DATA_BYTES),
            MAX_EVENT_DATA_BYTES,
          );
          for (const reader of [...this.readers]) reader.deliver(events);
          const last = events.at(-1);
          if (last === undefined || events.length < TAIL_BATCH || this.readers.size === 0) break;
          from = last.seq;
        }
      } while (this.#again);
    } catch (error) {
      for (const reader of [...this.readers]) reader.failed(error);
    } finally {
      this.#reading = false;
    }
  }
}

/** The tails of every run followed on this instance. */
export class RunEventTails {
  readonly #tails = new Map<string, RunTail>();

  constructor(
    private readonly storage: Storage,
    private readonly wakeups: RunEventWakeups,
  ) {}

  /** Adds `reader` to `runId`'s tail and reads once (what was committed since its cursor); answers how to leave. */
  join(runId: string, reader: TailReader): () => void {
    let tail = this.#tails.get(runId);
    if (tail === undefined) {
      tail = new RunTail(this.storage, runId, this.wakeups);
      this.#tails.set(runId, tail);
    }
    tail.readers.add(reader);
    tail.wake();
    const joined = tail;
    return () => {
      if (!joined.readers.delete(reader) || joined.readers.size > 0) return;
      joined.close();
      if (this.#tails.get(runId) === joined) this.#tails.delete(runId);
    };
  }

  /** Runs followed now (for tests and diagnostics). */
  get runs(): number {
    return this.#tails.size;
  }
}
