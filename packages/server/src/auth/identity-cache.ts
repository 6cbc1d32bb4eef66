/**
 * API key → identity, cached for a short time so that a request does not query its key. An entry
 * lives `ttlMs` at most; a revocation through `/v1/keys` removes the key's entries at once here and, on
 * PostgreSQL, on the other instances (`postgres-revocation-relay.ts`). While revocations from other
 * instances might be missed (their relay's listener is down) the cache is suspended: every request
 * reads its key from the database, as without a cache. Only valid keys are cached, so a new key works
 * at once and an unknown one is always looked up.
 */

import type { Clock } from "../clock.js";
import type { Identity } from "./identity.js";

/** Most keys cached at once; beyond, the oldest entry goes (a bound on memory, not a tuning knob). */
export const IDENTITY_CACHE_MAX_ENTRIES = 10_000;

interface CachedIdentity {
  readonly identity: Identity;
  readonly expiresAtMs: number;
}

/** The identities of recently seen keys, by the SHA-256 of their secret. */
export class IdentityCache {
  private readonly entries = new Map<string, CachedIdentity>();
  /** Bumped by every forget, suspend and resume: a lookup that began before one must not store its answer. */
  private generation = 0;
  private suspended = false;

  /** `ttlMs` 0 caches nothing. */
  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly maxEntries: number = IDENTITY_CACHE_MAX_ENTRIES,
  ) {}

  /** The cached identity of the key hashing to `keyHash`, unless absent or expired. */
  find(keyHash: string): Identity | undefined {
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs > this.clock.nowMs()) return entry.identity;
    this.entries.delete(keyHash);
    return undefined;
  }

  /** A token to take before reading a key from the database and to hand back to `store`. */
  ticket(): number {
    return this.generation;
  }

  /**
   * Caches what the database answered for `keyHash`, unless a revocation (or a suspension) came in
   * since `ticket` was taken: the answer may predate it.
   */
  store(keyHash: string, identity: Identity, ticket: number): void {
    if (this.ttlMs <= 0 || this.suspended || ticket !== this.generation) return;
    this.entries.delete(keyHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { identity, expiresAtMs: this.clock.nowMs() + this.ttlMs });
  }

  /** Drops every entry of `keyId` (it was revoked). */
  forgetKey(keyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) {
      if (entry.identity.keyId === keyId) this.entries.delete(hash);
    }
  }

  /** Stops caching and drops everything: revocations made elsewhere may go unheard until `resume`. */
  suspend(): void {
    this.generation++;
    this.suspended = true;
    this.entries.clear();
  }

  /** Caches again, from empty (revocations missed meanwhile are in the database, read on the next miss). */
  resume(): void {
    this.generation++;
    this.suspended = false;
    this.entries.clear();
  }

  /** Number of entries held (expired ones included until looked up); for tests and diagnostics. */
  get size(): number {
    return this.entries.size;
  }
}
