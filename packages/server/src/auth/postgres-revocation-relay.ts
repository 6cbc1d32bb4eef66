/**
 * Revocations relayed across server instances on one PostgreSQL database. Each instance LISTENs on a
 * dedicated connection, named after its schema in `pg_stat_activity`. `announce` counts the listeners
 * of its schema, sends `NOTIFY toolhost_keys` with the key ID and waits until every listener has
 * answered that it dropped the key from its identity cache (its own listener included), at most
 * ANNOUNCEMENT_WAIT_MS: so when the revoke answers, no instance still serves the key from its cache,
 * and the next request anywhere is refused. An instance that does not answer in time (stuck, or
 * reconnecting) is logged; its entries expire after the cache's TTL anyway.
 *
 * While the listener is away (an outage, a restart of PostgreSQL) notifications are lost, so the cache
 * is suspended — every request reads its key from the database — until the listener is back. It
 * reconnects with a growing delay and logs once per outage. Every connection has an 'error' listener
 * and the storage's timeouts, so an outage never ends the process.
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
import type { IdentityCache } from "./identity-cache.js";
import type { KeyRevocations } from "./key-revocations.js";
import type { RevocationRelay } from "./revocation-relay.js";

/** The channel every instance LISTENs on for revoked keys. */
export const REVOCATION_CHANNEL = "toolhost_keys";

/** The `application_name` of the relay's sending connections (visible in `pg_stat_activity`). */
export const REVOCATION_RELAY_APPLICATION_NAME = "toolhost key revocations";

/** The `application_name` of a listening connection on `schema`: announcements count these. */
export function revocationListenerName(schema: string): string {
  // PostgreSQL keeps 63 bytes of it; a truncation that merges two schemas only lengthens a wait.
  return `toolhost keys listener ${schema}`;
}

/** Longest wait for every listener to confirm an announcement. */
export const ANNOUNCEMENT_WAIT_MS = 1_000;

/** Where the relay connects. */
export type PostgresRevocationTarget = PostgresChannelTarget;

/**
 * A decoded message: an announcement `{"o":origin,"s":schema,"k":keyId,"n":nonce}`, or a listener's
 * confirmation of one `{"o":origin,"s":schema,"a":nonce}`.
 */
type RelayMessage =
  | { readonly origin: string; readonly schema: string; readonly keyId: string; readonly nonce: string }
  | { readonly origin: string; readonly schema: string; readonly confirms: string };

function decodeMessage(payload: string | undefined): RelayMessage | undefined {
  if (payload === undefined) return undefined;
  try {
    const { o, s, k, n, a } = JSON.parse(payload) as Record<string, unknown>;
    if (typeof o !== "string" || typeof s !== "string") return undefined;
    if (typeof a === "string") return { origin: o, schema: s, confirms: a };
    if (typeof k !== "string" || typeof n !== "string") return undefined;
    return { origin: o, schema: s, keyId: k, nonce: n };
  } catch {
    return undefined;
  }
}

/** An announcement of this instance waiting for its confirmations. */
interface PendingAnnouncement {
  readonly confirmedBy: Set<string>;
  readonly expected: number;
  readonly done: () => void;
}

/** A RevocationRelay through PostgreSQL NOTIFY/LISTEN, feeding `cache`. */
export class PostgresRevocationRelay implements RevocationRelay {
  private readonly origin = randomUUID();
  private readonly sender: pg.Pool;
  private listener: PostgresListener | undefined;
  private closed = false;
  /** Announcements of this instance waiting for confirmations, by nonce. */
  private readonly pending = new Map<string, PendingAnnouncement>();
  /** True from a failed confirmation until one succeeds again (the failure is logged once). */
  private confirmFailing = false;

  private constructor(
    target: PostgresRevocationTarget,
    private readonly cache: IdentityCache,
    private readonly log: FastifyBaseLogger,
    private readonly revocations: KeyRevocations | undefined,
  ) {
    this.sender = new pg.Pool({ ...postgresChannelClientConfig(target, REVOCATION_RELAY_APPLICATION_NAME), max: 1 });
    survivePostgresConnectionErrors(this.sender);
  }

  /**
   * Connects the listener (rejects when PostgreSQL cannot be reached) and answers the relay; what it
   * hears also reaches `revocations` (the event streams of the revoked keys end).
   */
  static async start(
    target: PostgresRevocationTarget,
    cache: IdentityCache,
    log: FastifyBaseLogger,
    revocations?: KeyRevocations,
  ): Promise<PostgresRevocationRelay> {
    const relay = new PostgresRevocationRelay(target, cache, log, revocations);
    try {
      relay.listener = await PostgresListener.start({
        target,
        channel: REVOCATION_CHANNEL,
        applicationName: REVOCATION_RELAY_APPLICATION_NAME,
        // Named only once listening: announcements count the listeners that will hear them.
        afterListen: async (client, schema) => {
          await client.query("select set_config('application_name', $1, false)", [revocationListenerName(schema)]);
        },
        onNotification: (payload) => relay.received(payload),
        onLost: (error) => {
          // Revocations may be missed while it is away: stop caching until it is back.
          cache.suspend();
          log.warn(
            { err: error },
            "the key revocation listener lost its connection; identities are read from the database until it is back",
          );
        },
        onRestored: () => {
          cache.resume();
          // Streams of keys revoked meanwhile would go on: end them all, their clients resume and are checked again.
          revocations?.mayHaveMissed();
          log.info("the key revocation listener reconnected; identities are cached again");
        },
      });
    } catch (error) {
      await relay.close();
      throw error;
    }
    return relay;
  }

  async announce(keyId: string): Promise<void> {
    if (this.closed || this.listener === undefined) return;
    const schema = this.listener.schema;
    const nonce = randomUUID();
    // A failure is the caller's: the revoke answers an error and may be retried (it is idempotent).
    const counted = await this.sender.query<{ listeners: number }>(
      "select count(*)::int as listeners from pg_stat_activity where application_name = $1",
      [revocationListenerName(schema)],
    );
    const expected = counted.rows[0]?.listeners ?? 0;
    let timer: NodeJS.Timeout | undefined;
    let announcement: PendingAnnouncement | undefined;
    const confirmed = new Promise<void>((resolve) => {
      announcement = { confirmedBy: new Set(), expected, done: resolve };
      this.pending.set(nonce, announcement);
      timer = setTimeout(resolve, ANNOUNCEMENT_WAIT_MS);
    });
    try {
      const payload = JSON.stringify({ o: this.origin, s: schema, k: keyId, n: nonce });
      await this.sender.query("select pg_notify($1, $2)", [REVOCATION_CHANNEL, payload]);
      if (expected > 0) await confirmed;
      const heard = announcement?.confirmedBy.size ?? 0;
      if (heard < expected) {
        this.log.warn(
          { key_id: keyId, listeners: expected, confirmed: heard },
          "not every instance confirmed a key revocation in time; their cached identities expire within the cache TTL",
        );
      }
    } finally {
      clearTimeout(timer);
      this.pending.delete(nonce);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const announcement of this.pending.values()) announcement.done();
    await this.listener?.close();
    await this.sender.end().catch(() => undefined);
  }

  private received(payload: string | undefined): void {
    const schema = this.listener?.schema;
    const message = decodeMessage(payload);
    if (message === undefined || message.schema !== schema) return;
    if ("confirms" in message) {
      this.confirmed(message.confirms, message.origin);
      return;
    }
    if (message.origin === this.origin) {
      // Our own announcement: the cache forgot the key before it was sent.
      this.confirmed(message.nonce, this.origin);
      return;
    }
    this.cache.forgetKey(message.keyId);
    this.revocations?.revoked(message.keyId);
    const confirmation = JSON.stringify({ o: this.origin, s: schema, a: message.nonce });
    this.sender.query("select pg_notify($1, $2)", [REVOCATION_CHANNEL, confirmation]).then(
      () => {
        this.confirmFailing = false;
      },
      (error: unknown) => {
        // Once per outage: the announcer waits its bounded time and logs on its side too.
        if (this.confirmFailing) return;
        this.confirmFailing = true;
        this.log.warn({ err: error }, "could not confirm a key revocation to the instance that announced it");
      },
    );
  }

  private confirmed(nonce: string, origin: string): void {
    const announcement = this.pending.get(nonce);
    if (announcement === undefined) return;
    announcement.confirmedBy.add(origin);
    if (announcement.confirmedBy.size >= announcement.expected) announcement.done();
  }
}
