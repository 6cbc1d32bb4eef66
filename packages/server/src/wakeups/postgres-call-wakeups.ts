/**
 * Wake-ups across server instances on one PostgreSQL database, by the same rule as in one process
 * (one waiter per new call): `notify` gives each wake-up to a waiter of this instance when one serves
 * it, and relays only the rest to the others with `NOTIFY toolhost_calls`; a dedicated connection
 * LISTENs and gives what other instances (of the same schema) announce to its own waiters — so a call
 * wakes at most one waiter per instance, never every waiter of its binding. The listener (a PostgresListener) reconnects after an error with a growing delay and then
 * wakes every local waiter, since notifications sent while it was away are lost (a woken long-poll
 * just queries again).
 * Meanwhile long-polls still answer when their `wait_ms` runs out. A lost listener is logged once per
 * outage (when it is lost, and when it is back), never per attempt. Relay failures are logged, never
 * thrown: a missed wake-up costs latency, not correctness. Every connection here has an 'error'
 * listener and the storage's connect and query timeouts, so an outage never ends the process.
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
import { type CallWakeups, InProcessCallWakeups, type WaitFor, type Woken } from "./call-wakeups.js";
import type { Wakeup } from "./wakeup.js";
import { decodeWakeup, encodeWakeups, WAKEUP_CHANNEL } from "./wakeup-payload.js";

/** Where the relay connects. */
export type PostgresWakeupTarget = PostgresChannelTarget;

/** The `application_name` of the relay's connections (visible in `pg_stat_activity`). */
export const RELAY_APPLICATION_NAME = "toolhost call wake-ups";

/** CallWakeups relayed through PostgreSQL NOTIFY/LISTEN. */
export class PostgresCallWakeups implements CallWakeups {
  private readonly local = new InProcessCallWakeups();
  private readonly origin = randomUUID();
  private readonly sender: pg.Pool;
  private listener: PostgresListener | undefined;
  private closed = false;
  /** True from a failed relay until one succeeds again (the failure is logged once). */
  private relayFailing = false;

  private constructor(
    target: PostgresWakeupTarget,
    private readonly log: FastifyBaseLogger,
  ) {
    this.sender = new pg.Pool({ ...postgresChannelClientConfig(target, RELAY_APPLICATION_NAME), max: 2 });
    survivePostgresConnectionErrors(this.sender);
  }

  /** Connects the listener (rejects when PostgreSQL cannot be reached) and answers the relay. */
  static async start(target: PostgresWakeupTarget, log: FastifyBaseLogger): Promise<PostgresCallWakeups> {
    const wakeups = new PostgresCallWakeups(target, log);
    try {
      wakeups.listener = await PostgresListener.start({
        target,
        channel: WAKEUP_CHANNEL,
        applicationName: RELAY_APPLICATION_NAME,
        onNotification: (payload) => wakeups.received(payload),
        onLost: (error) => log.warn({ err: error }, "the call wake-up listener lost its connection; reconnecting"),
        onRestored: () => {
          log.info("the call wake-up listener reconnected");
          // Notifications sent meanwhile are lost: let every waiter query again.
          wakeups.local.wakeAll();
        },
      });
    } catch (error) {
      await wakeups.close();
      throw error;
    }
    return wakeups;
  }

  notify(wakeups: Iterable<Wakeup>): void {
    const left = this.local.deliver(wakeups);
    if (left.length === 0 || this.closed || this.listener === undefined) return;
    for (const payload of encodeWakeups(this.origin, this.listener.schema, left)) {
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

  wait(waitFor: WaitFor, timeoutMs: number, signal?: AbortSignal): Promise<Woken | undefined> {
    return this.local.wait(waitFor, timeoutMs, signal);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    await this.listener?.close();
    await this.sender.end().catch(() => undefined);
  }

  private received(payload: string | undefined): void {
    const message = decodeWakeup(payload);
    if (message === undefined || message.origin === this.origin || message.schema !== this.listener?.schema) return;
    // What no waiter here serves is dropped, never relayed back (a woken long-poll queries anyway).
    this.local.deliver(message.wakeups);
  }
}
