/**
 * Run event wake-ups across server instances on one PostgreSQL database. `notify` wakes this
 * instance's readers at once and, coalesced per event-loop turn, relays the run IDs to the others with
 * `NOTIFY toolhost_run_events` from a small pool of its own (so the storage's statements per request
 * stay as they are); a dedicated connection LISTENs and wakes local readers for what other instances
 * of the same schema announce. While the listener is away notifications are lost, so once it is back
 * every local reader is woken (it reads once and finds what it missed). Relay failures are logged
 * once per outage, never thrown: a missed wake-up delays a stream, and the next one catches up.
 */

import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";
import { survivePostgresConnectionErrors } from "../storage/engine/connect-database.js";
import {
  type PostgresChannelTarget,
  PostgresListener,
  postgresChannelClientConfig,
} from "../storage/engine/postgres-listener.js";
import { decodeRunEventWakeup, encodeRunEventWakeups, RUN_EVENT_CHANNEL } from "./run-event-payload.js";
import { InProcessRunEventWakeups, type RunEventWakeups } from "./run-event-wakeups.js";

/** The `application_name` of the relay's connections (visible in `pg_stat_activity`). */
export const RUN_EVENT_RELAY_APPLICATION_NAME = "toolhost run events";

/** RunEventWakeups relayed through PostgreSQL NOTIFY/LISTEN. */
export class PostgresRunEventWakeups implements RunEventWakeups {
  private readonly local = new InProcessRunEventWakeups();
  private readonly origin = randomUUID();
  private readonly sender: pg.Pool;
  private listener: PostgresListener | undefined;
  private closed = false;
  /** Run IDs to relay at the end of this event-loop turn. */
  private outgoing = new Set<string>();
  private flushScheduled = false;
  /** True from a failed relay until one succeeds again (the failure is logged once). */
  private relayFailing = false;

  private constructor(
    target: PostgresChannelTarget,
    private readonly log: FastifyBaseLogger,
  ) {
    this.sender = new pg.Pool({ ...postgresChannelClientConfig(target, RUN_EVENT_RELAY_APPLICATION_NAME), max: 2 });
    survivePostgresConnectionErrors(this.sender);
  }

  /** Connects the listener (rejects when PostgreSQL cannot be reached). */
  static async start(target: PostgresChannelTarget, log: FastifyBaseLogger): Promise<PostgresRunEventWakeups> {
    const wakeups = new PostgresRunEventWakeups(target, log);
    try {
      wakeups.listener = await PostgresListener.start({
        target,
        channel: RUN_EVENT_CHANNEL,
        applicationName: RUN_EVENT_RELAY_APPLICATION_NAME,
        onNotification: (payload) => wakeups.received(payload),
        onLost: (error) => log.warn({ err: error }, "the run event listener lost its connection; reconnecting"),
        onRestored: () => {
          log.info("the run event listener reconnected");
          wakeups.local.wakeAll();
        },
      });
    } catch (error) {
      await wakeups.close();
      throw error;
    }
    return wakeups;
  }

  notify(runIds: readonly string[]): void {
    if (runIds.length === 0) return;
    this.local.notify(runIds);
    if (this.closed || this.listener === undefined) return;
    for (const runId of runIds) this.outgoing.add(runId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Many commits in one turn (a SQLite-like burst of receipts) share their NOTIFYs.
    setImmediate(() => this.flush());
  }

  watch(runId: string, wake: () => void): () => void {
    return this.local.watch(runId, wake);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    await this.listener?.close();
    await this.sender.end().catch(() => undefined);
  }

  private flush(): void {
    this.flushScheduled = false;
    const runIds = this.outgoing;
    this.outgoing = new Set();
    if (this.closed || this.listener === undefined) return;
    for (const payload of encodeRunEventWakeups(this.origin, this.listener.schema, runIds)) {
      this.sender.query("select pg_notify($1, $2)", [RUN_EVENT_CHANNEL, payload]).then(
        () => {
          if (!this.relayFailing) return;
          this.relayFailing = false;
          this.log.info("run event wake-ups are relayed to other instances again");
        },
        (error: unknown) => {
          if (this.relayFailing) return;
          this.relayFailing = true;
          this.log.warn({ err: error }, "could not relay a run event wake-up to other instances");
        },
      );
    }
  }

  private received(payload: string | undefined): void {
    const message = decodeRunEventWakeup(payload);
    if (message === undefined || message.origin === this.origin || message.schema !== this.listener?.schema) return;
    this.local.notify(message.runIds);
  }
}
