/**
 * The run driver: one supervised background worker per server that makes the model requests of HTTP
 * providers, outside any transaction and off every request's path. It polls the database for queued
 * turns nobody holds (every `pollIntervalMs`, and at once when kicked), leases each (`leaseMs`,
 * renewed while its request runs), and drives up to `concurrency` turns at a time (`drive-turn.ts`).
 *
 * Several instances on one PostgreSQL database share the queue: a lease is taken by one conditional
 * UPDATE, and an answer is applied only while its driver still holds the lease, so no run is driven
 * twice at once. A stopped server aborts its requests and gives its leases back, so a restarted (or
 * another) instance re-asks the model at once; a crashed one's leases lapse after `leaseMs`. A
 * storage failure never stops the worker: it logs it (once per minute while it repeats) and polls
 * again with a growing pause.
 */

import { context, ROOT_CONTEXT } from "@opentelemetry/api";
import type { ModelConnections } from "@toolhost/protocol";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import { newId } from "../ids.js";
import { inSpan } from "../observability/request-tracing.js";
import type { ModelTurnRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { type DriveDeps, driveTurn, type TurnObserver } from "./drive-turn.js";

/** How the driver works (server options). */
export interface RunDriverOptions {
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

/** What the driver needs. */
export interface RunDriverDeps {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly options: RunDriverOptions;
  /** Where the connections' `api_key_env` is read (the server's environment). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The operator's model connections, the only endpoints requests go to. */
  readonly connections: ModelConnections;
  /** Told of compactions and token counts (metrics, domain events). */
  readonly observer?: TurnObserver;
}

/** What the rest of the server may ask of the driver. */
export interface RunDriverHandle {
  /** Looks for queued turns now (after a commit that queued one). */
  kick(): void;
}

/** Longest pause between polls while storage keeps failing. */
const MAX_BACKOFF_MS = 5_000;

/** How often the same failure is logged again at most. */
const REPEAT_FAILURE_LOG_MS = 60_000;

/** Prefix of a driver's (server instance's) ID, the owner of its leases. */
export const DRIVER_ID_PREFIX = "drv";

/** The background worker of one server. */
export class RunDriver implements RunDriverHandle {
  /** This instance's ID: the owner its leases carry. */
  readonly owner: string;
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private failures = 0;
  private lastFailure: { message: string; atMs: number } | undefined;
  private readonly driveDeps: DriveDeps;

  constructor(private readonly deps: RunDriverDeps) {
    this.owner = newId(DRIVER_ID_PREFIX, Date.now());
    const { options } = deps;
    this.driveDeps = {
      storage: deps.storage,
      clock: deps.clock,
      call: { maxRetries: options.maxRetries, timeoutMs: options.timeoutMs, env: deps.env, log: deps.log },
      connections: deps.connections,
      leaseMs: options.leaseMs,
      ...(deps.observer === undefined ? {} : { observer: deps.observer }),
    };
  }

  /** Starts polling. */
  start(): void {
    this.schedule(0);
  }

  kick(): void {
    if (this.stopped) return;
    if (this.polling !== undefined) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops polling, aborts the requests in flight and gives their leases back; waits for all of it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
    const running = [...this.inFlight.values()];
    for (const { controller } of running) controller.abort();
    await Promise.all(running.map(({ done }) => done));
  }

  /** True while the driver could take another turn now (running, under its concurrency). */
  get hasRoom(): boolean {
    return !this.stopped && this.inFlight.size < this.deps.options.concurrency;
  }

  /** The runs this instance is driving now. */
  get driving(): readonly string[] {
    return [...this.inFlight.keys()];
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        const pause = this.failures === 0 ? this.deps.options.pollIntervalMs : this.backoffMs();
        this.schedule(this.again && this.failures === 0 ? 0 : pause);
        this.again = false;
      });
    }, delayMs);
    // The driver never keeps the process alive on its own.
    this.timer.unref();
  }

  private backoffMs(): number {
    const base = Math.min(MAX_BACKOFF_MS, this.deps.options.pollIntervalMs * 2 ** Math.min(this.failures, 10));
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private async poll(): Promise<void> {
    const { storage, clock, options } = this.deps;
    try {
      const free = options.concurrency - this.inFlight.size;
      if (free <= 0 || this.stopped) return;
      const now = clock.nowMs();
      for (const queued of await storage.modelTurns.claimable(now, free)) {
        if (this.stopped || this.inFlight.has(queued.run_id)) continue;
        const leased = await storage.modelTurns.lease(queued.run_id, this.owner, now, now + options.leaseMs);
        if (leased !== undefined) this.drive(leased);
      }
      this.failures = 0;
      this.lastFailure = undefined;
    } catch (error) {
      this.failures++;
      this.logFailure("polling queued model turns failed", error);
    }
  }

  private drive(lease: ModelTurnRecord): void {
    const { storage, clock, options } = this.deps;
    const controller = new AbortController();
    // Renew the lease while the request runs; a lost lease aborts the request (another instance has the turn).
    const renewal = setInterval(
      () => {
        const now = clock.nowMs();
        storage.modelTurns.renew(lease.run_id, this.owner, now, now + options.leaseMs).then(
          (held) => {
            if (!held) controller.abort();
          },
          (error: unknown) => this.logFailure("renewing a model turn lease failed", error),
        );
      },
      Math.max(1, Math.floor(options.leaseMs / 3)),
    );
    renewal.unref();
    const attributes = { "toolhost.run_id": lease.run_id, "toolhost.turn": lease.turn };
    // A new trace per turn: whichever request happened to kick the driver is not the turn's parent.
    const done = context
      .with(ROOT_CONTEXT, () =>
        inSpan("toolhost.run_turn", attributes, () => driveTurn(this.driveDeps, lease, this.owner, controller.signal)),
      )
      // What the turn made wakes by itself after its commit (executors; the driver for a queued next turn).
      .then(() => undefined)
      .catch(async (error: unknown) => {
        if (!controller.signal.aborted) this.logFailure(`model turn of run ${lease.run_id} failed`, error);
        // Give the turn back at once: a restarted or another instance (or this one) asks again.
        await storage.modelTurns.release(lease.run_id, this.owner, clock.nowMs()).catch(() => undefined);
      })
      .finally(() => {
        clearInterval(renewal);
        this.inFlight.delete(lease.run_id);
        this.kick();
      });
    this.inFlight.set(lease.run_id, { controller, done });
  }

  private logFailure(what: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const now = Date.now();
    const last = this.lastFailure;
    if (last !== undefined && last.message === message && now - last.atMs < REPEAT_FAILURE_LOG_MS) return;
    this.lastFailure = { message, atMs: now };
    this.deps.log.error({ err: error }, what);
  }
}
