/**
 * Writes a transaction defers to its end: stores queue them while the transaction's work runs, and the
 * storage runs them after the work returned and before COMMIT, in the same transaction. A run's events
 * are written this way (`RunEventStore.appendAtCommit`): one statement per transaction however many
 * changes the flow made, instead of one per change. The hooks also keep which runs got events, so that
 * the storage can tell the runs' event streams once the commit is done, and stores may ask to be told
 * once the commit succeeded (`afterCommit`), to keep in memory what only a committed row may stand for.
 * They are also the transaction's `AfterCommit`: the effects its flows register (executor wake-ups,
 * ready runs, queued model turns) are kept here and handed to the storage's sinks only once it committed.
 */

import type { Kysely } from "kysely";
import type { Database } from "../database-schema.js";
import type { Wakeup } from "../records.js";
import type { AfterCommit } from "../storage.js";
import type { CommittedEffects } from "./committed-effects.js";

/** The handle hooks write through (the store context's `Db`; named here so the two files need not import each other). */
type Db = Kysely<Database>;

/** The deferred writes of one transaction, run in the order they were first registered. */
export class CommitHooks implements AfterCommit {
  readonly #hooks: Array<(db: Db) => Promise<void>> = [];
  readonly #committed: Array<() => void> = [];
  readonly #runsWithEvents = new Set<string>();
  readonly #wakeups: Wakeup[] = [];
  readonly #readyRuns = new Set<string>();
  readonly #queuedModelTurns = new Set<string>();

  wakeExecutors(wakeups: Iterable<Wakeup>): void {
    for (const wakeup of wakeups) this.#wakeups.push(wakeup);
  }

  runsReady(runIds: Iterable<string>): void {
    for (const runId of runIds) this.#readyRuns.add(runId);
  }

  modelTurnsQueued(runIds: Iterable<string>): void {
    for (const runId of runIds) this.#queuedModelTurns.add(runId);
  }

  /** Notes that this transaction appends events to `runId` (announced after its commit). */
  eventsAppended(runId: string): void {
    this.#runsWithEvents.add(runId);
  }

  /** The runs this transaction appended events to. */
  get runsWithEvents(): ReadonlySet<string> {
    return this.#runsWithEvents;
  }

  /** Runs `hook` before this transaction commits (once per registration). */
  add(hook: (db: Db) => Promise<void>): void {
    this.#hooks.push(hook);
  }

  /** Calls `callback` once the transaction committed (never when it rolled back). */
  afterCommit(callback: () => void): void {
    this.#committed.push(callback);
  }

  /** Calls every `afterCommit` callback, in order; called by the storage once the commit succeeded. */
  committed(): void {
    for (const callback of this.#committed.splice(0)) callback();
  }

  /** Hands the registered effects to `effects` (wake-ups, ready runs, queued model turns); only once committed. */
  handOver(effects: CommittedEffects): void {
    effects.wakeExecutors(this.#wakeups.splice(0));
    const ready = [...this.#readyRuns];
    this.#readyRuns.clear();
    effects.runsReady(ready);
    const queued = [...this.#queuedModelTurns];
    this.#queuedModelTurns.clear();
    effects.modelTurnsQueued(queued);
  }

  /** Runs every hook on `db`, in order; called by the storage when the work succeeded. */
  async run(db: Db): Promise<void> {
    // A hook may register another (it runs too): iterate by index over the growing list.
    for (let index = 0; index < this.#hooks.length; index++) {
      const hook = this.#hooks[index];
      if (hook !== undefined) await hook(db);
    }
    this.#hooks.length = 0;
  }
}
