/**
 * The executor's connection: connect under the stable executor ID, reconnect when the lease lapsed
 * (409 `connection_offline`), and stop taking calls when another process connected with the same ID
 * (409 `connection_superseded` for the current connection: fenced). A refusal that names an older
 * connection of this process (superseded by its own reconnect) is stale and ignored.
 */

import type { ExecutorConnection } from "@toolhost/protocol/wire";
import { backoffDelayMs } from "../decisions/backoff.js";
import { RunnerError } from "../errors.js";
import type { RunnerEvents } from "../events.js";
import { isTransientRefusal } from "../http/http-outcome.js";
import type { ServerClient } from "../http/server-client.js";
import type { RunnerLogger } from "../logger.js";
import type { CompiledRunnerOptions } from "../options.js";
import type { StatsCounters } from "../stats.js";
import { sleep } from "./sleep.js";

/** A live connection. */
export interface Connection {
  readonly connectionId: string;
  readonly epoch: number;
  readonly heartbeatIntervalMs: number;
  readonly leaseTtlMs: number;
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
   * The live connection, connecting when there is none (one attempt at a time). Retries no answer
   * and server errors; a refusal throws RunnerError `connect_refused` when `throwOnRefusal`, else it is
   * retried at the longest backoff. Null when `signal` aborts or the executor is fenced.
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
    if (code !== "connection_offline" && code !== "connection_superseded") return "other";
    if (this.#current?.connectionId !== connectionId) return "stale";
    if (code === "connection_superseded") {
      this.#fenced = true;
      this.#current = null;
      this.deps.logger.error("another process connected with this executor ID: this runner stops taking calls", {
        executorId: this.deps.options.executorId,
      });
      this.deps.events.emit("fenced", { executorId: this.deps.options.executorId, connectionId });
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
    const { options, client, logger, stats, events } = this.deps;
    for (let attempt = 0; !signal.aborted; attempt++) {
      const outcome = await client.connect(options.executorId, options.bindingIds, signal);
      if (outcome.type === "answer") {
        const body = JSON.parse(outcome.text) as ExecutorConnection;
        const connection: Connection = {
          connectionId: body.connection_id,
          epoch: body.epoch,
          heartbeatIntervalMs: body.heartbeat_interval_ms,
          leaseTtlMs: body.lease_ttl_ms,
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
      let delay = backoffDelayMs(
        attempt,
        { minMs: options.retryBackoffMinMs, maxMs: options.retryBackoffMaxMs },
        options.random(),
      );
      if (outcome.type === "refused" && !isTransientRefusal(outcome.status)) {
        if (throwOnRefusal) {
          throw new RunnerError(
            "connect_refused",
            `the server refused the connection: ${outcome.code} ${outcome.message}`,
            {
              status: outcome.status,
              code: outcome.code,
            },
          );
        }
        logger.error("the server refuses the connection; retrying", { code: outcome.code, message: outcome.message });
        delay = options.retryBackoffMaxMs;
      } else if (outcome.type !== "refused" && outcome.aborted) {
        break;
      } else {
        logger.warn("cannot connect yet; retrying", {
          reason: outcome.type === "refused" ? `${outcome.status} ${outcome.code}` : outcome.message,
          attempt,
        });
      }
      await sleep(delay, signal);
    }
    return null;
  }
}
