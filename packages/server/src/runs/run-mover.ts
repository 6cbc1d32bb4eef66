/**
 * A run moved through the run transition table inside a transaction that holds its lock: events
 * change the status in memory, `save` stores it (conditional on the stored status) and appends a
 * `run.status` event when the status changed.
 */

import { type RunEvent, type RunStatus, transitionRun } from "@toolhost/protocol";
import type { RunRecord } from "../storage/records.js";
import type { RunChange, Stores } from "../storage/storage.js";
import { emitRunEvents, runStatusEvent } from "./run-events.js";

/** A locked run and its pending change. */
export class RunMover {
  /** The status after the events so far. */
  status: RunStatus;
  /** Model turns started, after the events so far. */
  turn: number;
  private stored: RunRecord;

  /**
   * `consumesReady`: the turn engine moves the run it found ready, so every save also clears its
   * ready mark (`runs.ready_at_ms`) in the same statement.
   */
  constructor(
    private readonly stores: Stores,
    run: RunRecord,
    private readonly nowMs: number,
    private readonly consumesReady = false,
  ) {
    this.stored = run;
    this.status = run.status;
    this.turn = run.turn;
  }

  /** The run as last stored. */
  get run(): RunRecord {
    return this.stored;
  }

  /** Applies `event` (throws when the table forbids it: the caller decided wrongly). */
  move(event: RunEvent): RunStatus {
    const transition = transitionRun(this.status, event);
    if (!transition.ok) throw new Error(`run ${this.stored.run_id}: no ${event} from ${this.status}`);
    this.status = transition.to;
    return this.status;
  }

  /** Starts a model turn: answers its index (0, 1, …). */
  startTurn(): number {
    this.move("start_turn");
    this.turn += 1;
    return this.turn - 1;
  }

  /**
   * Stores the status, the turn count and `change`; answers the stored run. Not read back: the caller
   * holds the run's lock, so a run that changed meanwhile is a bug (it fails the transaction), not a
   * race to lose — and on PostgreSQL the change leaves with the next statement waited for.
   */
  async save(change: Omit<RunChange, "status" | "updated_at_ms" | "turn"> = {}): Promise<RunRecord> {
    const before = this.stored;
    const changed = await this.stores.runs.updateLocked(before, {
      status: this.status,
      turn: this.turn,
      updated_at_ms: this.nowMs,
      ...change,
      ...(this.consumesReady ? { ready_at_ms: null } : {}),
    });
    this.stored = changed;
    if (changed.status !== before.status)
      await emitRunEvents(this.stores, changed.run_id, [runStatusEvent(changed)], this.nowMs);
    return changed;
  }
}
