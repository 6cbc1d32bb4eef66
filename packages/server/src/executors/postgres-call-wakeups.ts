/**
 * Wake-ups across server instances on one PostgreSQL database. `notify` wakes this instance's waiters
 * at once (in process) and relays the binding IDs to the others with `NOTIFY toolhost_calls`; a
 * dedicated connection LISTENs and wakes local waiters for what other instances (of the same schema)
 * announce. The listener reconnects after an error with a growing delay and then wakes every local
 * waiter, since notifications sent while it was away are lost (a woken long-poll just queries again).
 * Meanwhile long-polls still answer when their `wait_ms` runs out. A lost listener is logged once per
 * outage (when it is lost, and when it is back), never per attempt. Relay failures are logged, never
 * thrown: a missed wake-up costs latency, not correctness. Every connection here has an 'error'
 * listener and the storage's connect and query timeouts, so an outage never ends the process.
 */

import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import {
  type DatabaseTimeouts,
  postgresTimeoutConfig,
  survivePostgresConnectionErrors,
} from "../storage/connect-database.js";
import { type CallWakeups, InProcessCallWakeups } from "./call-wakeups.js";
import { decodeWakeup, encodeWakeups, WAKEUP_CHANNEL } from "./wakeup-payload.js";

/** Where the relay connects: the database URL's connection string and startup options. */
export interface PostgresWakeupTarget {
  readonly connectionString: string;
  /** Startup options (they carry the schema's search_path). */
  readonly options: string | undefined;
  /** The storage's connect and query timeouts, applied to the relay's connections too. */
  readonly timeouts: DatabaseTimeouts;
}

/** The `application_name` of the relay's connections (visible in `pg_stat_activity`). */
export const RELAY_APPLICATION_NAME = "toolhost call wake-ups";

/** Delays between listener reconnection attempts: doubling from the first to the last. */
export const RELAY_RECONNECT_DELAYS_MS = { first: 100, max: 5_000 } as const;

/** CallWakeups relayed through PostgreSQL NOTIFY/LISTEN. */
export class PostgresCallWakeups implements CallWakeups {
  private readonly local = new InProcessCallWakeups();
  private readonly origin = randomUUID();
  private readonly sender: pg.Pool;
  private listener: pg.Client | undefined;
  private schema = "";
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs: number = RELAY_RECONNECT_DELAYS_MS.first;
  /** True from a failed relay until one succeeds again (the failure is logged once). */
  private relayFailing = false;

  private constructor(
    private readonly target: PostgresWakeupTarget,
    private readonly log: FastifyBaseLogger,
  ) {
    this.sender = new pg.Pool({ ...this.clientConfig(), max: 2 });
    survivePostgresConnectionErrors(this.sender);
  }

  /** Connects the listener (rejects when PostgreSQL cannot be reached) and answers the relay. */
  static async start(target: PostgresWakeupTarget, log: FastifyBaseLogger): Promise<PostgresCallWakeups> {
    const wakeups = new PostgresCallWakeups(target, log);
    try {
      await wakeups.listen();
    } catch (error) {
      await wakeups.close();
      throw error;
    }
    return wakeups;
  }

  notify(bindingIds: Iterable<string>): void {
    const ids = [...bindingIds];
    if (ids.length === 0) return;
    this.local.notify(ids);
    if (this.closed) return;
    for (const payload of encodeWakeups(this.origin, this.schema, ids)) {
      this.sender.query("select pg_notify($1, $2)", [WAKEUP_CHANNEL, payload]).then(
        () => {
          if (!this.relayFailing) return;
          this.relayFailing = false;
          this.log.info("call wake-ups are relayed to other instances again");
        },
        (error: unknown) => {
          // Once per outage, not once per wake-up.
          if (this.relayFailing) return;
          this.relayFailing = true;
          this.log.warn({ err: error }, "could not relay a call wake-up to other instances");
        },
      );
    }
  }

  wait(bindingIds: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.local.wait(bindingIds, timeoutMs, signal);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    await this.local.close();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.sender.end().catch(() => undefined);
  }

  private clientConfig(): pg.ClientConfig {
    const { connectionString, options, timeouts } = this.target;
    const config: pg.ClientConfig = {
      connectionString,
      application_name: RELAY_APPLICATION_NAME,
      ...postgresTimeoutConfig(timeouts),
    };
    return options === undefined ? config : { ...config, options };
  }

  /** Opens the listener connection, learns the schema and LISTENs. */
  private async listen(): Promise<void> {
    const client = new pg.Client(this.clientConfig());
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, undefined));
    client.on("notification", (message) => this.received(message.channel, message.payload));
    try {
      await client.connect();
      const row = await client.query<{ schema: string | null }>("select current_schema() as schema");
      this.schema = row.rows[0]?.schema ?? "";
      await client.query(`LISTEN ${WAKEUP_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  private received(channel: string, payload: string | undefined): void {
    if (channel !== WAKEUP_CHANNEL) return;
    const message = decodeWakeup(payload);
    if (message === undefined || message.origin === this.origin || message.schema !== this.schema) return;
    this.local.notify(message.bindingIds);
  }

  /** The listener connection failed or ended: reconnect unless closing. */
  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.closed || this.listener !== client) return;
    this.listener = undefined;
    client.end().catch(() => undefined);
    this.log.warn({ err: error }, "the call wake-up listener lost its connection; reconnecting");
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, RELAY_RECONNECT_DELAYS_MS.max);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.listen().then(
        () => {
          this.reconnectDelayMs = RELAY_RECONNECT_DELAYS_MS.first;
          this.log.info("the call wake-up listener reconnected");
          // Notifications sent meanwhile are lost: let every waiter query again.
          this.local.wakeAll();
        },
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}
