/**
 * A supervised LISTEN connection on one PostgreSQL channel, shared by the relays that carry news
 * between server instances (call wake-ups, key revocations). It learns the connection's schema (so a
 * relay ignores other schemas' messages), LISTENs, and on an error or end reconnects with a doubling
 * delay, telling its owner when it was lost and when it is back: notifications sent meanwhile are
 * lost, so the owner makes up for them (wakes every waiter, suspends a cache). The connection has an
 * 'error' listener and the storage's timeouts, so an outage never ends the process.
 */

import pg from "pg";
import { type DatabaseTimeouts, postgresTimeoutConfig } from "./connect-database.js";

/** Where a relay connects: the database URL's connection string and startup options. */
export interface PostgresChannelTarget {
  readonly connectionString: string;
  /** Startup options (they carry the schema's search_path). */
  readonly options: string | undefined;
  /** The storage's connect and query timeouts, applied to the relay's connections too. */
  readonly timeouts: DatabaseTimeouts;
}

/** Delays between reconnection attempts: doubling from the first to the last. */
export const LISTENER_RECONNECT_DELAYS_MS = { first: 100, max: 5_000 } as const;

/** The configuration of a relay's connection named `applicationName` (seen in `pg_stat_activity`). */
export function postgresChannelClientConfig(target: PostgresChannelTarget, applicationName: string): pg.ClientConfig {
  const { connectionString, options, timeouts } = target;
  const config: pg.ClientConfig = {
    connectionString,
    application_name: applicationName,
    ...postgresTimeoutConfig(timeouts),
  };
  return options === undefined ? config : { ...config, options };
}

/** What a PostgresListener listens to and whom it tells. */
export interface PostgresListenerOptions {
  readonly target: PostgresChannelTarget;
  readonly channel: string;
  readonly applicationName: string;
  /** Runs on each new connection once it LISTENs, before it counts as listening (e.g. renames it). */
  readonly afterListen?: (client: pg.Client, schema: string) => Promise<void>;
  readonly onNotification: (payload: string | undefined) => void;
  /** The connection failed or ended (`error` is undefined on a plain end); a reconnect is scheduled. */
  readonly onLost: (error: Error | undefined) => void;
  /** Listening again after a loss. */
  readonly onRestored: () => void;
}

/** One supervised LISTEN connection. */
export class PostgresListener {
  /** The connection's `current_schema()`, learnt when it first connected. */
  schema = "";
  private client: pg.Client | undefined;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs: number = LISTENER_RECONNECT_DELAYS_MS.first;

  private constructor(private readonly options: PostgresListenerOptions) {}

  /** The backend process ID of the live connection, if any (`pg_stat_activity.pid`; tests end it). */
  get backendPid(): number | undefined {
    return (this.client as (pg.Client & { processID?: number }) | undefined)?.processID;
  }

  /** Connects and LISTENs (rejects when PostgreSQL cannot be reached). */
  static async start(options: PostgresListenerOptions): Promise<PostgresListener> {
    const listener = new PostgresListener(options);
    await listener.listen();
    return listener;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const { target, channel, applicationName, afterListen, onNotification } = this.options;
    const client = new pg.Client(postgresChannelClientConfig(target, applicationName));
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, undefined));
    client.on("notification", (message) => {
      if (message.channel === channel) onNotification(message.payload);
    });
    try {
      await client.connect();
      const row = await client.query<{ schema: string | null }>("select current_schema() as schema");
      this.schema = row.rows[0]?.schema ?? "";
      await client.query(`LISTEN ${channel}`);
      await afterListen?.(client, this.schema);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.options.onLost(error);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, LISTENER_RECONNECT_DELAYS_MS.max);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.listen().then(
        () => {
          if (this.closed) return;
          this.reconnectDelayMs = LISTENER_RECONNECT_DELAYS_MS.first;
          this.options.onRestored();
        },
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}
