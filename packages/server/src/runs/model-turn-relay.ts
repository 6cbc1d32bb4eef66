/**
 * Queued model turns announced across server instances. The transaction that queues a provider turn
 * kicks this instance's run driver after its commit; when that driver has no room (all its
 * `modelConcurrency` requests are in flight) the run IDs are announced to the other instances instead,
 * so one with room asks the model now rather than at its next poll. In one process (SQLite) there is
 * nobody to tell; on PostgreSQL the announcement is `NOTIFY toolhost_model_turns` from a small pool of
 * its own (the storage's statements per request stay as they are), heard on a dedicated LISTEN
 * connection. A lost announcement only delays a turn until the next poll; a listener back from an
 * outage kicks the driver once (it may have missed some).
 */

import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import { parseDatabaseUrl } from "../storage/database-url.js";
import {
  type DatabaseTimeouts,
  NO_DATABASE_TIMEOUTS,
  survivePostgresConnectionErrors,
} from "../storage/engine/connect-database.js";
import {
  type PostgresChannelTarget,
  PostgresListener,
  postgresChannelClientConfig,
} from "../storage/engine/postgres-listener.js";
import { decodeRunEventWakeup, encodeRunEventWakeups } from "./run-event-payload.js";

/** The channel every instance LISTENs on for queued model turns (payloads as run event wake-ups'). */
export const MODEL_TURN_CHANNEL = "toolhost_model_turns";

/** The `application_name` of the relay's connections (visible in `pg_stat_activity`). */
export const MODEL_TURN_RELAY_APPLICATION_NAME = "toolhost model turns";

/** Tells the other instances' run drivers about queued turns, and hears theirs. */
export interface ModelTurnRelay {
  /** Announces that turns of `runIds` are queued (to the other instances only). */
  announce(runIds: readonly string[]): void;
  /** Calls `heard` whenever another instance announced queued turns. */
  onAnnounced(heard: () => void): void;
  /** Stops announcing and listening. */
  close(): Promise<void>;
}

/** The relay of one process: there are no other instances to tell. */
export const IN_PROCESS_MODEL_TURN_RELAY: ModelTurnRelay = {
  announce: () => undefined,
  onAnnounced: () => undefined,
  close: async () => undefined,
};

/** The relay for the database at `databaseUrl`; rejects when a PostgreSQL listener cannot connect. */
export async function createModelTurnRelay(
  databaseUrl: string,
  log: FastifyBaseLogger,
  timeouts: DatabaseTimeouts = NO_DATABASE_TIMEOUTS,
): Promise<ModelTurnRelay> {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.dialect === "sqlite") return IN_PROCESS_MODEL_TURN_RELAY;
  const { connectionString, options } = location;
  return PostgresModelTurnRelay.start({ connectionString, options, timeouts }, log);
}

/** ModelTurnRelay through PostgreSQL NOTIFY/LISTEN. */
class PostgresModelTurnRelay implements ModelTurnRelay {
  private readonly origin = randomUUID();
  private readonly sender: pg.Pool;
  private listener: PostgresListener | undefined;
  private readonly hearers = new Set<() => void>();
  private closed = false;
  /** True from a failed announcement until one succeeds again (the failure is logged once). */
  private failing = false;

  private constructor(
    target: PostgresChannelTarget,
    private readonly log: FastifyBaseLogger,
  ) {
    this.sender = new pg.Pool({ ...postgresChannelClientConfig(target, MODEL_TURN_RELAY_APPLICATION_NAME), max: 1 });
    survivePostgresConnectionErrors(this.sender);
  }

  static async start(target: PostgresChannelTarget, log: FastifyBaseLogger): Promise<PostgresModelTurnRelay> {
    const relay = new PostgresModelTurnRelay(target, log);
    try {
      relay.listener = await PostgresListener.start({
        target,
        channel: MODEL_TURN_CHANNEL,
        applicationName: MODEL_TURN_RELAY_APPLICATION_NAME,
        onNotification: (payload) => relay.received(payload),
        onLost: (error) => log.warn({ err: error }, "the model turn listener lost its connection; reconnecting"),
        onRestored: () => {
          log.info("the model turn listener reconnected");
          relay.heard();
        },
      });
    } catch (error) {
      await relay.close();
      throw error;
    }
    return relay;
  }

  announce(runIds: readonly string[]): void {
    if (runIds.length === 0 || this.closed || this.listener === undefined) return;
    for (const payload of encodeRunEventWakeups(this.origin, this.listener.schema, runIds)) {
      this.sender.query("select pg_notify($1, $2)", [MODEL_TURN_CHANNEL, payload]).then(
        () => {
          if (!this.failing) return;
          this.failing = false;
          this.log.info("queued model turns are announced to other instances again");
        },
        (error: unknown) => {
          if (this.failing) return;
          this.failing = true;
          this.log.warn({ err: error }, "could not announce a queued model turn to other instances");
        },
      );
    }
  }

  onAnnounced(heard: () => void): void {
    this.hearers.add(heard);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.hearers.clear();
    await this.listener?.close();
    await this.sender.end().catch(() => undefined);
  }

  private received(payload: string | undefined): void {
    const message = decodeRunEventWakeup(payload);
    if (message === undefined || message.origin === this.origin || message.schema !== this.listener?.schema) return;
    this.heard();
  }

  private heard(): void {
    for (const heard of this.hearers) heard();
  }
}
