/**
 * The turn engine: advances runs whose turn settled, each in a transaction of its own made after the
 * commit that settled it (docs/runs.md#the-turn-engine). Settling a turn's last call only marks the run
 * ready (`runs.ready_at_ms`, in the settling transaction) and registers it (`stores.afterCommit.runsReady`);
 * once that commit is done the engine takes it.
 *
 * - Runs that became ready together (one group commit on SQLite, concurrent receipts) are advanced in
 *   one transaction, one batch at a time; a batch that fails is tried again one run at a time, so one
 *   run's failure never holds up the others (a run that fails alone keeps its mark for the sweep).
 * - Each batch locks its runs in run ID order and advances only those still marked ready (`decideAdvance`),
 *   clearing the mark in the statement that saves the turn: of several instances on one PostgreSQL
 *   database, exactly one advances a run; the others wait for its lock, find it advanced and answer
 *   its status.
 * - The model is an adapter of the engine: the scripted model plays its turn right here; an HTTP
 *   provider's turn is queued for the run driver (`model-turns.ts`).
 * - A run whose mark outlived its engine (the process died after the commit) is found by the recovery
 *   sweep (`turnEngineSweep`), which reads the partial index `runs_ready` in order.
 */

import { context, ROOT_CONTEXT } from "@opentelemetry/api";
import type { RunStatus } from "@toolhost/protocol";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import type { Sweep } from "../runtime/sweeper.js";
import type { LockedReadyRun, Storage } from "../storage/storage.js";
import { runModelTurns } from "./model-turns.js";

/** Most runs one engine transaction advances. */
export const MAX_RUNS_PER_BATCH = 64;

/** How long a ready mark stays the engine's of the instance that made it before the sweep takes it. */
export const READY_GRACE_MS = 1_000;

/** Most ready runs one sweep takes. */
export const SWEEP_BATCH = 200;

/** How often the same failure is logged again at most (the sweep retries a failing run every tick). */
const REPEAT_FAILURE_LOG_MS = 60_000;

/** What the engine does with a locked run (pure). */
export type AdvanceDecision =
  /** Still ready and waiting for tools: make its next turn. */
  | "advance"
  /** Ready, but it moved meanwhile (cancelled, expired): only clear the mark. */
  | "clear"
  /** Not ready (advanced already, here or by another instance): nothing to do. */
  | "none";

/** What to do with `locked` (a run the engine locked). */
export function decideAdvance(locked: LockedReadyRun): AdvanceDecision {
  if (!locked.ready) return "none";
  return locked.run.status === "waiting_for_tools" ? "advance" : "clear";
}

/** What the engine needs. */
export interface TurnEngineDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
}

/** What a caller of the engine gets: the run's status once advanced, or undefined when it was not. */
type Advanced = Promise<RunStatus | undefined>;

interface Waiter {
  readonly done: Advanced;
  readonly resolve: (status: RunStatus | undefined) => void;
}

function waiter(): Waiter {
  let resolve: (status: RunStatus | undefined) => void = () => {};
  const done = new Promise<RunStatus | undefined>((settle) => {
    resolve = settle;
  });
  return { done, resolve };
}

/** The engine of one server. */
export class TurnEngine {
  readonly #queued = new Map<string, Waiter>();
  readonly #inFlight = new Map<string, Waiter>();
  #pumping: Promise<void> | undefined;
  #scheduled: NodeJS.Immediate | undefined;
  #stopped = false;
  #lastFailure: { message: string; atMs: number } | undefined;

  constructor(private readonly deps: TurnEngineDeps) {}

  /**
   * Advances `runId` (it joins a batch queued or in flight); answers its status afterwards, or
   * undefined when the engine stopped or the run's turn failed (its mark stays for the sweep).
   */
  advance(runId: string): Advanced {
    if (this.#stopped) return Promise.resolve(undefined);
    const inFlight = this.#inFlight.get(runId);
    if (inFlight !== undefined) return inFlight.done;
    return this.#enqueue(runId).done;
  }

  /** Advances every run of `runIds`; resolves once all are done. */
  async advanceAll(runIds: Iterable<string>): Promise<void> {
    await Promise.all([...runIds].map((runId) => this.advance(runId)));
  }

  /** Stops taking runs and waits for the batch in flight; queued runs keep their marks (the sweep takes them). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    await this.#pumping;
    for (const queued of this.#queued.values()) queued.resolve(undefined);
    this.#queued.clear();
  }

  #enqueue(runId: string): Waiter {
    let queued = this.#queued.get(runId);
    if (queued === undefined) {
      queued = waiter();
      this.#queued.set(runId, queued);
    }
    // The batch starts once this turn of the event loop handed over every commit it finished, so runs
    // that became ready together go in one transaction.
    if (this.#pumping === undefined && this.#scheduled === undefined) {
      this.#scheduled = setImmediate(() => {
        this.#scheduled = undefined;
        // A batch is no request's child: its turns' spans start traces of their own, as the driver's do.
        this.#pumping = context
          .with(ROOT_CONTEXT, () => this.#pump())
          .finally(() => {
            this.#pumping = undefined;
          });
      });
    }
    return queued;
  }

  async #pump(): Promise<void> {
    while (this.#queued.size > 0 && !this.#stopped) {
      const batch = [...this.#queued.entries()].slice(0, MAX_RUNS_PER_BATCH);
      for (const [runId, queued] of batch) {
        this.#queued.delete(runId);
        this.#inFlight.set(runId, queued);
      }
      const runIds = batch.map(([runId]) => runId);
      const statuses = await this.#advanceBatch(runIds);
      for (const [runId, queued] of batch) {
        this.#inFlight.delete(runId);
        queued.resolve(statuses.get(runId));
      }
    }
  }

  /** One transaction for the batch; after a failure, one per run. */
  async #advanceBatch(runIds: readonly string[]): Promise<Map<string, RunStatus>> {
    try {
      return await this.#transaction(runIds);
    } catch (error) {
      if (runIds.length === 1) {
        this.#logFailure(error, runIds[0] as string);
        return new Map();
      }
    }
    const statuses = new Map<string, RunStatus>();
    for (const runId of runIds) {
      for (const [id, status] of await this.#advanceBatch([runId])) statuses.set(id, status);
    }
    return statuses;
  }

  #logFailure(error: unknown, runId: string): void {
    const message = error instanceof Error ? error.message : String(error);
    const now = Date.now();
    const last = this.#lastFailure;
    if (last !== undefined && last.message === message && now - last.atMs < REPEAT_FAILURE_LOG_MS) return;
    this.#lastFailure = { message, atMs: now };
    this.deps.log.error({ err: error, run_id: runId }, "the turn engine could not advance a run");
  }

  /** Locks `runIds`, advances those still ready and answers every locked run's status after it. */
  #transaction(runIds: readonly string[]): Promise<Map<string, RunStatus>> {
    const { storage, clock } = this.deps;
    return storage.transaction(async (stores) => {
      const nowMs = clock.nowMs();
      const statuses = new Map<string, RunStatus>();
      const cleared: string[] = [];
      for (const locked of await stores.runs.lockReady(runIds)) {
        const { run } = locked;
        const decision = decideAdvance(locked);
        statuses.set(run.run_id, run.status);
        if (decision === "clear") cleared.push(run.run_id);
        if (decision !== "advance") continue;
        // Its appends (a compaction, the next turn's calls) go in as one statement at the commit.
        stores.history.lengthKnown(run.run_id, run.history_length);
        const next = await runModelTurns(stores, run, nowMs, { ready: true });
        statuses.set(run.run_id, next.run.status);
      }
      await stores.runs.clearReady(cleared);
      return statuses;
    });
  }
}

/** The engine's recovery sweep: runs marked ready past the grace that no engine took (their instance died). */
export const turnEngineSweep: Sweep<{ readonly storage: Storage; readonly turnEngine: TurnEngine }> = {
  name: "turn engine",
  async run({ storage, turnEngine }, nowMs) {
    const ready = await storage.runs.readySince(nowMs - READY_GRACE_MS, SWEEP_BATCH);
    await turnEngine.advanceAll(ready);
  },
};
