/**
 * Runs in the `runs` table; scope conditions apply to the run's agent. The output is stored as a JSON
 * string literal (`output_json`), so that any string — U+0000 and lone surrogates included — reads
 * back exactly as it was written.
 */

import type { RunStatus } from "@toolhost/protocol";
import { type Insertable, sql } from "kysely";
import type { RunsTable } from "../database-schema.js";
import { definedColumns, ReusableQuery, ShapedReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { IdScope, Page, PageRequest, RunRecord } from "../records.js";
import { inScope } from "../scope-condition.js";
import { oneUnlessGuardFails, StoredStateChangedError } from "../stored-state-changed.js";
import type { LockedReadyRun, RecentRunsFilter, RunChange, RunStore } from "./contract.js";
import { outputJsonOf, RUN_COLUMNS, runFromRow } from "./run-row.js";

const LIST = "runs";
const RECENT = "runs-recent";
const COLUMNS = RUN_COLUMNS;
const CHANGE_COLUMNS = [
  "status",
  "updated_at_ms",
  "turn",
  "error_json",
  "ended_at_ms",
  "tool_call_count",
  "ready_at_ms",
] as const;

// Loading a run by ID (unscoped, and locked for a change) happens in every run and call flow: compiled
// once (reusable-query.ts).
const GET_ANY = new ReusableQuery((db, runId: string) =>
  db.selectFrom("runs").select(COLUMNS).where("run_id", "=", runId).where(inScope("agent_id", "*")),
);
const GET_FOR_UPDATE = new ReusableQuery((db, runId: string) =>
  db.selectFrom("runs").select(COLUMNS).where("run_id", "=", runId).forUpdate(),
);
const GET_UNLOCKED = new ReusableQuery((db, runId: string) =>
  db.selectFrom("runs").select(COLUMNS).where("run_id", "=", runId),
);

/** Forms kept compiled per shaped statement below: a few are used; a form past these is built each time. */
const MAX_SHAPES = 32;

/** Inserting a run, in the form of the columns it defines (every one, as the flows write runs). */
const INSERT = new ShapedReusableQuery(MAX_SHAPES, (db, columns: readonly (keyof RunsTable)[], values) =>
  // The values are a RunRecord's own columns (definedColumns), so the cast restates their types.
  db
    .insertInto("runs")
    .values(Object.fromEntries(columns.map((column, i) => [column, values[i]])) as Insertable<RunsTable>),
);

/** A run's change: the columns it sets (each form one statement), then the run's ID and status from. */
const UPDATE = new ShapedReusableQuery(MAX_SHAPES, (db, columns: readonly string[], values) =>
  db
    .updateTable("runs")
    .set(Object.fromEntries(columns.map((column, i) => [column, values[i]])))
    .where("run_id", "=", values[columns.length] as string)
    .where("status", "=", values[columns.length + 1] as string)
    .returning(COLUMNS),
);

/**
 * A locked run's change, not read back: SQLite's counts the rows it changed; PostgreSQL's is sent
 * unanswered and fails when no row changed (stored-state-changed.ts).
 */
const UPDATE_LOCKED = {
  sqlite: new ShapedReusableQuery(MAX_SHAPES, (db, columns: readonly string[], values) =>
    db
      .updateTable("runs")
      .set(Object.fromEntries(columns.map((column, i) => [column, values[i]])))
      .where("run_id", "=", values[columns.length] as string)
      .where("status", "=", values[columns.length + 1] as string),
  ),
  postgres: new ShapedReusableQuery(MAX_SHAPES, (db, columns: readonly string[], values) =>
    db
      .with("changed", (qc) =>
        qc
          .updateTable("runs")
          .set(Object.fromEntries(columns.map((column, i) => [column, values[i]])))
          .where("run_id", "=", values[columns.length] as string)
          .where("status", "=", values[columns.length + 1] as string)
          .returning(sql<number>`1`.as("one")),
      )
      .selectFrom("changed")
      .select(oneUnlessGuardFails(sql`count(*) = 1`, sql`count(*)`, "runs changed, its status was another").as("one")),
  ),
};

/** The turn engine's runs, locked on PostgreSQL, per number of runs. */
const LOCK_READY = new ShapedReusableQuery(MAX_SHAPES, (db, { lock }: { lock: boolean; runs: number }, runIds) => {
  const query = db
    .selectFrom("runs")
    .select([...COLUMNS, "ready_at_ms"])
    .where("run_id", "in", runIds as string[])
    .orderBy("run_id");
  return lock ? query.forUpdate() : query;
});

const CLEAR_READY = new ShapedReusableQuery(MAX_SHAPES, (db, _count: number, runIds) =>
  db
    .updateTable("runs")
    .set({ ready_at_ms: null })
    .where("run_id", "in", runIds as string[])
    .where("ready_at_ms", "is not", null),
);

/** The columns and values `change` sets (its output as stored). */
function changeColumns(change: RunChange): { columns: string[]; values: unknown[] } {
  const { names, values } = definedColumns(change, CHANGE_COLUMNS);
  const columns: string[] = names;
  if (change.output !== undefined) {
    columns.push("output_json");
    values.push(outputJsonOf(change.output));
  }
  return { columns, values };
}

/** The RunStore over Kysely (both dialects). */
export class KyselyRunStore implements RunStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(run: RunRecord): Promise<void> {
    const { output, ...columns } = run;
    const { names, values } = definedColumns({ ...columns, output_json: outputJsonOf(output) }, COLUMNS);
    // Nothing is read back: inside a PostgreSQL transaction it goes out with the next statement.
    await this.ctx.write((db) => INSERT.send(this.ctx.dialect, db, names, values));
  }

  async get(runId: string, scope: IdScope): Promise<RunRecord | undefined> {
    const row = await this.ctx.read((db) =>
      scope === "*"
        ? GET_ANY.takeFirst(this.ctx.dialect, db, runId)
        : db
            .selectFrom("runs")
            .select(COLUMNS)
            .where("run_id", "=", runId)
            .where(inScope("agent_id", scope))
            .executeTakeFirst(),
    );
    return row === undefined ? undefined : runFromRow(row);
  }

  async getStatus(runId: string, scope: IdScope): Promise<RunStatus | undefined> {
    const row = await this.ctx.read((db) =>
      db
        .selectFrom("runs")
        .select("status")
        .where("run_id", "=", runId)
        .where(inScope("agent_id", scope))
        .executeTakeFirst(),
    );
    return row?.status as RunStatus | undefined;
  }

  async getForUpdate(runId: string): Promise<RunRecord | undefined> {
    const dialect = this.ctx.dialect;
    // SQLite has no row locks (and no FOR UPDATE): its transactions already run one at a time.
    const query = dialect === "postgres" ? GET_FOR_UPDATE : GET_UNLOCKED;
    const row = await this.ctx.read((db) => query.takeFirst(dialect, db, runId));
    return row === undefined ? undefined : runFromRow(row);
  }

  async listBySession(sessionId: string, page: PageRequest): Promise<Page<RunRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("runs")
        .select(COLUMNS)
        .where("session_id", "=", sessionId)
        .orderBy("created_at_ms")
        .orderBy("run_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "run_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows.map(runFromRow), page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.run_id }),
      );
    });
  }

  async listRecent(page: PageRequest, scope: IdScope, filter: RecentRunsFilter = {}): Promise<Page<RunRecord>> {
    const after = decodeCreatedCursor(RECENT, page.cursor);
    return this.ctx.read(async (db) => {
      // Each form reads one index of 0011_runs_list_indexes in order: by agent, by status, or by time.
      let query = db
        .selectFrom("runs")
        .select(COLUMNS)
        .where(inScope("agent_id", scope))
        .orderBy("created_at_ms", "desc")
        .orderBy("run_id", "desc")
        .limit(page.limit + 1);
      if (filter.agentId !== undefined) query = query.where("agent_id", "=", filter.agentId);
      if (filter.status !== undefined) query = query.where("status", "=", filter.status);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "run_id"), "<", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows.map(runFromRow), page.limit, (last) =>
        encodeCreatedCursor(RECENT, { at: last.created_at_ms, id: last.run_id }),
      );
    });
  }

  async update(runId: string, from: RunStatus, change: RunChange): Promise<RunRecord | undefined> {
    const { columns, values } = changeColumns(change);
    // The changed row comes back with the change: no second read of the run.
    const row = await this.ctx.write((db) => UPDATE.takeFirst(this.ctx.dialect, db, columns, [...values, runId, from]));
    return row === undefined ? undefined : runFromRow(row);
  }

  async updateLocked(locked: RunRecord, change: RunChange): Promise<RunRecord> {
    const { columns, values } = changeColumns(change);
    const all = [...values, locked.run_id, locked.status];
    const { dialect } = this.ctx;
    await this.ctx.write(async (db) => {
      if (dialect === "postgres") return UPDATE_LOCKED.postgres.send(dialect, db, columns, all);
      const { numAffectedRows } = await UPDATE_LOCKED.sqlite.execute(dialect, db, columns, all);
      if (numAffectedRows !== 1n) throw new StoredStateChangedError(`run ${locked.run_id} changed while locked`);
    });
    const changed: Record<string, unknown> = { ...locked };
    for (const [name, value] of Object.entries(change)) {
      if (value !== undefined && name !== "ready_at_ms") changed[name] = value;
    }
    return changed as unknown as RunRecord;
  }

  async overdue(nowMs: number, limit: number): Promise<string[]> {
    // The WHERE repeats the partial index's predicate, so both dialects read runs_deadline in order.
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("runs")
        .select("run_id")
        .where("ended_at_ms", "is", null)
        .where("deadline_ms", "<=", nowMs)
        .orderBy("deadline_ms")
        .orderBy("run_id")
        .limit(limit)
        .execute(),
    );
    return rows.map((row) => row.run_id);
  }

  async lockReady(runIds: readonly string[]): Promise<LockedReadyRun[]> {
    if (runIds.length === 0) return [];
    // SQLite has no row locks (and no FOR UPDATE): its transactions already run one at a time.
    const lock = this.ctx.dialect === "postgres";
    const { rows } = await this.ctx.read((db) =>
      LOCK_READY.execute(this.ctx.dialect, db, { lock, runs: runIds.length }, runIds),
    );
    return rows.map(({ ready_at_ms, ...row }) => ({ run: runFromRow(row), ready: ready_at_ms !== null }));
  }

  async clearReady(runIds: readonly string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.ctx.write((db) => CLEAR_READY.execute(this.ctx.dialect, db, runIds.length, runIds));
  }

  async readySince(readyBeforeMs: number, limit: number): Promise<string[]> {
    // The WHERE repeats the partial index's predicate, so both dialects read runs_ready in order.
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("runs")
        .select("run_id")
        .where("ready_at_ms", "is not", null)
        .where("ready_at_ms", "<=", readyBeforeMs)
        .orderBy("ready_at_ms")
        .orderBy("run_id")
        .limit(limit)
        .execute(),
    );
    return rows.map((row) => row.run_id);
  }
}
