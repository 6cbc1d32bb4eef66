/**
 * The executor's connection: connect under the stable executor ID (declaring the tools it runs),
 * reconnect when the lease lapsed (409 `connection_offline`), and fail the runner when another process
 * connected with the same ID (409 `connection_superseded` for the current connection: fenced). A
 * refusal that names an older connection of this process (superseded by its own reconnect) is stale
 * and ignored. Connecting retries what passes by itself; a refusal fails `start()` at once and, on a
 * reconnect, fails the runner once it outlasted `refusalGraceMs`.
 */

import { executorTrouble } from "../decisions/trouble-policy.js";
import { RunnerError } from "../errors.js";
import type { RunnerEvents } from "../events.js";
import type { ServerClient } from "../http/server-client.js";
import type { RunnerLogger } from "../logger.js";
import type { CompiledRunnerOptions } from "../options.js";
import type { StatsCounters } from "../stats.js";
import { sleep } from "./sleep.js";
import type { TroubleWatch } from "./trouble-watch.js";

/**
 * Refusals that mean another process now acts as this executor ID: a newer connection superseded this
 * one, or a connect with another API key took the executor over (the server then refuses this key).
 */
const FENCING_CODES: ReadonlySet<string> = new Set(["connection_superseded", "executor_key_mismatch"]);

/** A live connection. */
export interface Connection {
  readonly connectionId: string;
  readonly epoch: number;
  readonly heartbeatIntervalMs: number;
  readonly leaseTtlMs: number;
  /** The batched routes the server offered on connect (null: per-call routes only, or batching is off). */
  readonly batch: { readonly claimMax: number; readonly receiptsMax: number } | null;
}

/** What a refusal led to. */
export type RefusalHandling = "reconnected" | "fenced" | "stale" | "other";

/** What the connection manager needs. */
export interface ConnectionDeps {
  readonly options: CompiledRunnerOptions;
  readonly client: ServerClient;
  readonly logger: RunnerLogger;
  readonly stats: StatsCounters;
  readonly events: RunnerEvents;
  readonly watch: TroubleWatch;
  /** Fails the runner (when fenced). */
  readonly fail: (error: RunnerError) => void;
  /** The tool names to declare when connecting (null: declare none). */
  readonly toolNames: () => readonly string[] | null;
}

/** Holds and renews the executor's connection. */
export class ConnectionManager {
  #current: Connection | null = null;
  #fenced = false;
  #connecting: Promise<Connection | null> | undefined;

  constructor(private readonly deps: ConnectionDeps) {}

  /** The current connection, if any. */
  get current(): Connection | null {
    return this.#current;
  }

  /** True once another process took over the executor ID. */
  get fenced(): boolean {
    return this.#fenced;
  }

  /**
   * The live connection, connecting when there is none (one attempt at a time). Retries no answer,
   * server errors and unreadable answers; a refusal throws RunnerError `connect_refused` when
   * `throwOnRefusal`, else it is retried with backoff until it outlasts `refusalGraceMs` (the runner then
   * fails). Null when `signal` aborts, the executor is fenced or the runner failed.
   */
  ensure(signal: AbortSignal, throwOnRefusal = false): Promise<Connection | null> {
    if (this.#fenced) return Promise.resolve(null);
    if (this.#current !== null) return Promise.resolve(this.#current);
    this.#connecting ??= this.#connect(signal, throwOnRefusal).finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /** Handles a refusal of a request made on `connectionId`. */
  async handleRefusal(connectionId: string, code: string, signal: AbortSignal): Promise<RefusalHandling> {
    if (code !== "connection_offline" && !FENCING_CODES.has(code)) return "other";
    if (this.#current?.connectionId !== connectionId) return "stale";
    if (FENCING_CODES.has(code)) {
      this.#fenced = true;
      this.#current = null;
      this.deps.logger.error("another process connected with this executor ID: this runner stops taking calls", {
        executorId: this.deps.options.executorId,
      });
      this.deps.events.emit("fenced", { executorId: this.deps.options.executorId, connectionId });
      this.deps.fail(
        new RunnerError("fenced", "another process connected with this executor ID: this runner stopped taking calls", {
          executorId: this.deps.options.executorId,
          connectionId,
        }),
      );
      return "fenced";
    }
    this.#current = null;
    this.deps.logger.warn("the connection went offline (lease lapsed): reconnecting", { connectionId });
    await this.ensure(signal);
    return "reconnected";
  }

  /** Forgets the connection (after disconnect). */
  clear(): Connection | null {
    const current = this.#current;
    this.#current = null;
    return current;
  }

  async #connect(signal: AbortSignal, throwOnRefusal: boolean): Promise<Connection | null> {
    const { options, client, logger, stats, events, watch } = this.deps;
    while (!signal.aborted) {
      const outcome = await client.connect(options.executorId, options.bindingIds, this.deps.toolNames(), signal);
      if (outcome.type === "answer") {
        watch.clear("connect");
        const body = outcome.body;
        const connection: Connection = {
          connectionId: body.connection_id,
          epoch: body.epoch,
          heartbeatIntervalMs: body.heartbeat_interval_ms,
          leaseTtlMs: body.lease_ttl_ms,
          batch:
            options.batching && body.batch !== undefined
              ? { claimMax: body.batch.claim_max, receiptsMax: body.batch.receipts_max }
              : null,
        };
        this.#current = connection;
        stats.add("connects");
        logger.info("connected", {
          executorId: options.executorId,
          connectionId: connection.connectionId,
          epoch: body.epoch,
        });
        events.emit("connected", {
          executorId: options.executorId,
          connectionId: connection.connectionId,
          epoch: connection.epoch,
        });
        return connection;
      }
      if (outcome.type === "unreachable" && outcome.aborted) break;
      const trouble = executorTrouble(outcome);
      if (trouble.kind === "refused" && throwOnRefusal && outcome.type === "refused") {
        throw new RunnerError(
          "connect_refused",
          `the server refused the connection: ${outcome.code} ${outcome.message}`,
          {
            status: outcome.status,
            code: outcome.code,
          },
        );
      }
      const decision = watch.report("connect", trouble);
      if (decision.fatal) break;
      await sleep(decision.delayMs, signal);
    }
    return null;
  }
}
