/**
 * The committed history of runs as this process last read it, so that a model turn reads from the
 * database only the items appended since (docs/storage.md#history-reads) instead of the run's whole
 * history every turn. Sound because history items never change once committed (append-only, no
 * update, no delete but the whole run's by retention, which forgets it here) and a run's `seq`s are
 * 0, 1, 2, … without gaps; only rows known committed are kept (inside a transaction, after its
 * commit). Another instance appending to the run is seen on the next read: it starts at the first
 * `seq` not kept here.
 *
 * Bounded: beyond `maxItemCharacters` of item text in all, the least recently used runs are dropped;
 * a run whose history alone exceeds a quarter of that is not kept (it is read in full, as before).
 */

import type { HistoryItemRecord } from "../records.js";

/** Default bound of the item text kept, in UTF-16 code units (about 64 MB of ASCII JSON). */
export const DEFAULT_HISTORY_CACHE_CHARACTERS = 64 * 1024 * 1024;

/** One run's kept items (seq 0 … n-1) and their text size. */
interface Entry {
  readonly items: HistoryItemRecord[];
  characters: number;
}

/** An LRU cache of committed run histories, by run ID. */
export class HistoryCache {
  readonly #maxCharacters: number;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #runs = new Map<string, Entry>();
  #characters = 0;

  constructor(maxItemCharacters = DEFAULT_HISTORY_CACHE_CHARACTERS) {
    if (!Number.isSafeInteger(maxItemCharacters) || maxItemCharacters < 1) {
      throw new RangeError(`the history cache bound must be a positive integer, got ${maxItemCharacters}`);
    }
    this.#maxCharacters = maxItemCharacters;
  }

  /** The kept items of `runId` (seq 0 … n-1; empty when none are kept). Callers must not change them. */
  get(runId: string): readonly HistoryItemRecord[] {
    const entry = this.#runs.get(runId);
    if (entry === undefined) return [];
    this.#runs.delete(runId);
    this.#runs.set(runId, entry);
    return entry.items;
  }

  /**
   * Keeps `items`, committed items of `runId` read from `seq` `from` on (in order, without gaps), when
   * they continue what is kept; ones kept already are skipped, a gap is ignored.
   */
  extend(runId: string, from: number, items: readonly HistoryItemRecord[]): void {
    const entry = this.#runs.get(runId) ?? { items: [], characters: 0 };
    const kept = entry.items.length;
    if (from > kept) return;
    const fresh = items.slice(kept - from);
    if (fresh.length === 0) return;
    let added = 0;
    for (const item of fresh) added += item.item_json.length;
    if (entry.characters + added > this.#maxCharacters / 4) {
      this.forget(runId);
      return;
    }
    entry.items.push(...fresh);
    entry.characters += added;
    this.#characters += added;
    this.#runs.delete(runId);
    this.#runs.set(runId, entry);
    for (const [oldest, dropped] of this.#runs) {
      if (this.#characters <= this.#maxCharacters) break;
      this.#runs.delete(oldest);
      this.#characters -= dropped.characters;
    }
  }

  /** Drops what is kept of `runId` (its rows were deleted). */
  forget(runId: string): void {
    const entry = this.#runs.get(runId);
    if (entry === undefined) return;
    this.#runs.delete(runId);
    this.#characters -= entry.characters;
  }

  /** Drops everything (after migrations). */
  clear(): void {
    this.#runs.clear();
    this.#characters = 0;
  }

  /** Runs and item text kept, for tests and diagnostics. */
  stats(): { runs: number; characters: number } {
    return { runs: this.#runs.size, characters: this.#characters };
  }
}
