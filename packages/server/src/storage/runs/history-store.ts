/**
 * A run's execution history in `execution_history`: append-only. Each item is compact JSON text,
 * written once and read back byte for byte; `runs.history_length` is the next item's `seq`. An append
 * is one statement (`history-append.ts`).
 *
 * Inside a transaction whose flow holds a run's lock and told the store the run's length
 * (`lengthKnown`), the run's appends wait for the commit and go in as ONE statement however many the
 * flow made (a run's creation appends its input and then its first turn's calls; a settled call its
 * result and then the next turn's): their seqs are known at once, and `list` in the same transaction
 * answers them after the stored items. The statement checks it numbered them as promised (else the
 * transaction fails and nothing is kept).
 *
 * `items` (what a model turn reads) reads only the items after those this process keeps in its
 * history cache (`history-cache.ts`): a turn reads what was appended since the last one, and nothing
 * when the run's length told by `lengthKnown` says the cache holds every stored item.
 */

import type { Db, StoreContext } from "../engine/store-context.js";
import { decodeNumberCursor, encodeNumberCursor, pageOf } from "../page-cursor.js";
import type { HistoryItemRecord, Page, PageRequest } from "../records.js";
import { StoredStateChangedError } from "../stored-state-changed.js";
import type { HistoryStore } from "./contract.js";
import {
  appendAtOnPostgres,
  appendOnPostgres,
  appendOnSqlite,
  markReadyOnSqlite,
  type NewHistoryItem,
} from "./history-append.js";

const LIST = "history";
const COLUMNS = ["run_id", "seq", "item_json", "created_at_ms"] as const;

/** A run whose appends wait for the commit: its stored length, the items appended since, and its ready mark. */
interface Deferred {
  readonly stored: number;
  readonly items: HistoryItemRecord[];
  readyAtMs: number | undefined;
}

/** The HistoryStore over Kysely (both dialects). */
export class KyselyHistoryStore implements HistoryStore {
  /** Runs whose appends wait for this transaction's commit (only inside one). */
  readonly #deferred = new Map<string, Deferred>();

  constructor(private readonly ctx: StoreContext) {}

  lengthKnown(runId: string, length: number): void {
    const hooks = this.ctx.commitHooks;
    if (hooks === undefined || this.#deferred.has(runId)) return;
    const deferred: Deferred = { stored: length, items: [], readyAtMs: undefined };
    this.#deferred.set(runId, deferred);
    const { items } = deferred;
    const appended = (): void => {
      // Committed with the transaction: the next turn need not read them back.
      hooks.afterCommit(() => this.ctx.historyCache.extend(runId, deferred.stored, items));
    };
    if (this.ctx.dialect === "postgres") {
      // Its answer is not read (it leaves with COMMIT): the statement itself fails when the length moved.
      hooks.add(async (db) => {
        this.#deferred.delete(runId);
        if (items.length === 0) return;
        await appendAtOnPostgres(db, { runId, items, readyAtMs: deferred.readyAtMs }, deferred.stored);
        appended();
      });
      return;
    }
    hooks.add(async (db) => {
      this.#deferred.delete(runId);
      if (items.length === 0) return;
      const seqs = await this.#insert(db, runId, items, deferred.readyAtMs);
      if (seqs.some((seq, index) => seq !== deferred.stored + index)) {
        throw new StoredStateChangedError(`history of run ${runId} grew while its lock was held`);
      }
      appended();
    });
  }

  async append(runId: string, itemsJson: readonly string[], atMs: number, readyAtMs?: number): Promise<number[]> {
    if (itemsJson.length === 0) return [];
    const deferred = this.#deferred.get(runId);
    if (deferred === undefined) {
      const items = itemsJson.map((item_json) => ({ item_json, created_at_ms: atMs }));
      return this.ctx.write((db) => this.#insert(db, runId, items, readyAtMs));
    }
    deferred.readyAtMs ??= readyAtMs;
    const first = deferred.stored + deferred.items.length;
    return itemsJson.map((item_json, index) => {
      const seq = first + index;
      deferred.items.push({ run_id: runId, seq, item_json, created_at_ms: atMs });
      return seq;
    });
  }

  /** One statement on both dialects (and SQLite's ready mark); answers the new seqs in order. */
  async #insert(
    db: Db,
    runId: string,
    items: readonly NewHistoryItem[],
    readyAtMs: number | undefined,
  ): Promise<number[]> {
    const input = { runId, items, readyAtMs };
    const { rows } = await (this.ctx.dialect === "postgres" ? appendOnPostgres(db, input) : appendOnSqlite(db, input));
    if (rows.length !== items.length) throw new Error(`history of a missing run ${runId}`);
    if (readyAtMs !== undefined && this.ctx.dialect === "sqlite") await markReadyOnSqlite(db, runId, readyAtMs);
    return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
  }

  async items(runId: string): Promise<HistoryItemRecord[]> {
    const cache = this.ctx.historyCache;
    const kept = cache.get(runId);
    const from = kept.length;
    // Under the run's lock the stored length is known (`lengthKnown`): when every stored item is kept,
    // there is nothing to read.
    const deferred = this.#deferred.get(runId);
    if (deferred !== undefined && deferred.stored === from) return [...kept, ...deferred.items];
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("execution_history")
        .select(COLUMNS)
        .where("run_id", "=", runId)
        .where("seq", ">=", from)
        .orderBy("seq")
        .execute(),
    );
    const read = rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    // Items waiting for the commit come after every stored one.
    const items = [...kept, ...read, ...(this.#deferred.get(runId)?.items ?? [])];
    // Inside a transaction a row read may be one it wrote: kept only once that is committed.
    const hooks = this.ctx.commitHooks;
    if (hooks === undefined) cache.extend(runId, from, read);
    else hooks.afterCommit(() => cache.extend(runId, from, read));
    return items;
  }

  async list(runId: string, page: PageRequest): Promise<Page<HistoryItemRecord>> {
    const after = decodeNumberCursor(LIST, page.cursor);
    const rows = await this.ctx.read(async (db) => {
      let query = db
        .selectFrom("execution_history")
        .select(COLUMNS)
        .where("run_id", "=", runId)
        .orderBy("seq")
        .limit(page.limit + 1);
      if (after !== undefined) query = query.where("seq", ">", after);
      return query.execute();
    });
    // Items waiting for the commit come after every stored one.
    const waiting = this.#deferred.get(runId)?.items ?? [];
    const all =
      rows.length > page.limit ? rows : [...rows, ...waiting.filter((item) => after === undefined || item.seq > after)];
    return pageOf(all, page.limit, (last) => encodeNumberCursor(LIST, last.seq));
  }
}
