/**
 * The one ticker of the server's periodic sweeps (executor leases, claim accept windows, call
 * deadlines): every `sweepIntervalMs` it runs each registered sweep in turn with the injected clock's
 * time. Runs never overlap (the next one is scheduled when the previous one ended), a failing sweep is
 * logged and the others still run, and `stop()` waits for a run in progress, so storage can close after.
 * Sweeps must be safe when several instances run them at once (conditional UPDATEs).
 *
 * While storage is unavailable a tick stops at its first sweep that says so, and the ticks back off
 * (the interval doubles, up to SWEEP_OUTAGE_BACKOFF_MAX_MS). The outage is logged once when it starts
 * and once when a sweep succeeds again; the sweeps catch up on what lapsed meanwhile.
 */

import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import { isStorageUnavailableError } from "../storage/storage-unavailable.js";

/**
 * One periodic sweep; `run` changes what lapsed by `nowMs` and notifies wake-ups after its commits.
 * `Services` names what it uses of the context the sweeper hands every sweep.
 */
export interface Sweep<Services> {
  /** A short name for the log. */
  readonly name: string;
  /** Runs the sweep once. */
  run(services: Services, nowMs: number): Promise<void>;
}

/** How often the same failure of one sweep is logged again at most. */
const REPEAT_FAILURE_LOG_MS = 60_000;

/** Longest pause between ticks while storage is unavailable. */
export const SWEEP_OUTAGE_BACKOFF_MAX_MS = 2_000;

/** Runs a list of sweeps on an interval until stopped. */
export class Sweeper<Context extends { readonly clock: Clock }> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly lastFailure = new Map<string, { message: string; atMs: number }>();
  /** When the current storage outage began (wall clock), or undefined while storage answers. */
  private outageSinceMs: number | undefined;

  constructor(
    private readonly sweeps: readonly Sweep<Context>[],
    private readonly context: Context,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts ticking every `intervalMs` (the first run after one interval; longer while storage is down). */
  start(intervalMs: number): void {
    if (this.stopped || this.timer !== undefined) return;
    const schedule = (delayMs: number): void => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.running = this.runOnce().finally(() => {
          this.running = undefined;
          const backoffMs = Math.min(delayMs * 2, Math.max(intervalMs, SWEEP_OUTAGE_BACKOFF_MAX_MS));
          schedule(this.outageSinceMs === undefined ? intervalMs : backoffMs);
        });
      }, delayMs);
      // The ticker never keeps the process alive on its own.
      this.timer.unref();
    };
    schedule(intervalMs);
  }

  /** Runs every sweep once, in order, at the clock's current time; failures are logged, never thrown. */
  async runOnce(): Promise<void> {
    for (const sweep of this.sweeps) {
      if (this.stopped) return;
      try {
        await sweep.run(this.context, this.context.clock.nowMs());
        this.lastFailure.delete(sweep.name);
        this.storageAnswered();
      } catch (error) {
        if (isStorageUnavailableError(error)) {
          this.storageFailed(error);
          // The next sweeps would fail the same way: try again on the next (later) tick.
          return;
        }
        this.logFailure(sweep.name, error);
      }
    }
  }

  private storageFailed(error: Error): void {
    if (this.outageSinceMs !== undefined) return;
    this.outageSinceMs = Date.now();
    this.log.warn(
      { err: error },
      "storage is unavailable: requests answer 503 storage_unavailable and sweeps retry with backoff until it returns",
    );
  }

  private storageAnswered(): void {
    if (this.outageSinceMs === undefined) return;
    const outageMs = Date.now() - this.outageSinceMs;
    this.outageSinceMs = undefined;
    this.log.info({ outage_ms: outageMs }, "storage is available again; sweeps resumed");
  }

  /** Stops ticking and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private logFailure(name: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const now = Date.now();
    const last = this.lastFailure.get(name);
    // A database outage fails every tick: log it once, then again only when it changes or a minute passed.
    if (last !== undefined && last.message === message && now - last.atMs < REPEAT_FAILURE_LOG_MS) return;
    this.lastFailure.set(name, { message, atMs: now });
    this.log.error({ err: error, sweep: name }, `sweep ${name} failed`);
  }
}
