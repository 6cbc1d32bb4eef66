/**
 * Rows that never change once committed — agent versions, toolset versions and sessions — kept in
 * memory after their first read, so that the hot paths (every run creation and model turn) skip
 * their lookups. On PostgreSQL each lookup is a network round trip on the way to an executor's
 * wake-up.
 *
 * Sound because:
 * - nothing updates or deletes these rows: their stores have no such method, and after migrations
 *   (which may rewrite them, as `legacy-budget-rewrite.ts` does) the storage empties its cache;
 * - every row read is committed: a row's ID reaches a client only after the commit that wrote it, and
 *   no transaction reads a row it wrote itself, so a rolled-back row is never cached;
 * - scope checks are applied to a cached row exactly as the SQL applies them (`inIdScope`).
 *
 * Bounded: beyond `capacity` rows the least recently used one is dropped. The cache belongs to one
 * storage (one process); other instances on the same database keep their own.
 */

import type { IdScope } from "../records.js";

/** Default number of rows kept: far more than the versions and sessions a server uses at once. */
export const DEFAULT_IMMUTABLE_ROW_CAPACITY = 10_000;

/** The kinds of immutable rows, each its own key space. */
export type ImmutableRowKind = "agent_version" | "toolset_version" | "session";

/** An LRU cache of immutable rows by kind and key; cached rows are frozen. */
export class ImmutableRowCache {
  readonly #capacity: number;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #rows = new Map<string, object>();
  #hits = 0;
  #misses = 0;

  constructor(capacity = DEFAULT_IMMUTABLE_ROW_CAPACITY) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError(`the immutable row cache capacity must be a positive integer, got ${capacity}`);
    }
    this.#capacity = capacity;
  }

  /** The cached row of `kind` under `key`, or undefined (counted as a miss). */
  get<T extends object>(kind: ImmutableRowKind, key: string): Readonly<T> | undefined {
    const id = `${kind}\u0000${key}`;
    const row = this.#rows.get(id);
    if (row === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    this.#rows.delete(id);
    this.#rows.set(id, row);
    return row as T;
  }

  /** Keeps `row` (frozen) as the committed row of `kind` under `key`, and answers it. */
  remember<T extends object>(kind: ImmutableRowKind, key: string, row: T): Readonly<T> {
    const frozen = Object.freeze(row);
    this.#rows.set(`${kind}\u0000${key}`, frozen);
    if (this.#rows.size > this.#capacity) {
      const oldest = this.#rows.keys().next();
      if (oldest.done !== true) this.#rows.delete(oldest.value);
    }
    return frozen;
  }

  /** The row of `kind` under `key`: the cached one, else what `read` finds (kept when it found one). */
  async read<T extends object>(
    kind: ImmutableRowKind,
    key: string,
    read: () => Promise<T | undefined>,
  ): Promise<Readonly<T> | undefined> {
    const cached = this.get<T>(kind, key);
    if (cached !== undefined) return cached;
    const row = await read();
    // A miss is never kept: another instance may create the row a moment later.
    return row === undefined ? undefined : this.remember(kind, key, row);
  }

  /**
   * Like `read` for rows that belong to an agent: `read` looks the row up unscoped (one cached row
   * serves every credential), and the agent scope is applied here, as `inScope` applies it in SQL.
   */
  async readInAgentScope<T extends { agent_id: string }>(
    kind: ImmutableRowKind,
    key: string,
    scope: IdScope,
    read: () => Promise<T | undefined>,
  ): Promise<Readonly<T> | undefined> {
    const row = await this.read(kind, key, read);
    return row !== undefined && inIdScope(row.agent_id, scope) ? row : undefined;
  }

  /** Forgets every row (after migrations, which may rewrite them). */
  clear(): void {
    this.#rows.clear();
  }

  /** Counters since creation, for tests and diagnostics. */
  stats(): { hits: number; misses: number; size: number } {
    return { hits: this.#hits, misses: this.#misses, size: this.#rows.size };
  }
}

/** `id` lies in `scope`, as `inScope` (scope-condition.ts) decides it in SQL. */
export function inIdScope(id: string, scope: IdScope): boolean {
  return scope === "*" || scope.includes(id);
}
