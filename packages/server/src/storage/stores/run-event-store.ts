/**
 * The run event streams (`run_events`): append-only, `seq` 1, 2, … per run. Appends happen under the
 * run's lock (every flow that changes a run takes it first), so reading the last `seq` and inserting
 * after it never races; the primary key (run_id, seq) would refuse a duplicate anyway. A
 * `history.item` event stores only its item's `seq`: the item text is joined in when read, not copied.
 * Likewise a `run.status`, `tool_call.status` or `model.request` event appended with a `ref_id` stores
 * only the row's ID and a snapshot of what changes in it; the row is joined in when read, and the
 * runs area rebuilds the wire form (`runs/run-event-data.ts`). A `run.status` event of its own run
 * stores `ref_id` '' (OWN_RUN, 0019) rather than repeat the run's ID.
 */

import { sql } from "kysely";
import type { ModelRequestsTable } from "../database-schema.js";
import type {
  NewRunEvent,
  RunEventCallFacts,
  RunEventKind,
  RunEventRunFacts,
  RunEventSource,
  StoredRunEvent,
} from "../records.js";
import type { RunEventStore } from "../storage.js";
import type { Db, StoreContext } from "../store-context.js";
import { modelRequestFromRow } from "./model-request-store.js";

/** The `ref_id` of a `run.status` event that names its own run (the event's `run_id`). */
const OWN_RUN = "";

/** Events of one run waiting for the transaction's commit. */
interface Deferred {
  runId: string;
  events: NewRunEvent[];
  atMs: number[];
}

/** The RunEventStore over Kysely (both dialects). */
export class KyselyRunEventStore implements RunEventStore {
  /** Events deferred to this transaction's commit, per run in first-append order. */
  #deferred: Deferred[] | undefined;

  constructor(private readonly ctx: StoreContext) {}

  async append(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<number[]> {
    if (events.length === 0) return [];
    return this.ctx.write((db) =>
      insertEvents(
        db,
        runId,
        events,
        events.map(() => atMs),
      ),
    );
  }

  async appendAtCommit(runId: string, events: readonly NewRunEvent[], atMs: number): Promise<void> {
    if (events.length === 0) return;
    const hooks = this.ctx.commitHooks;
    if (hooks === undefined) {
      await this.append(runId, events, atMs);
      return;
    }
    if (this.#deferred === undefined) {
      const deferred: Deferred[] = [];
      this.#deferred = deferred;
      hooks.add(async (db) => {
        this.#deferred = undefined;
        for (const run of deferred) await insertEvents(db, run.runId, run.events, run.atMs);
      });
    }
    hooks.eventsAppended(runId);
    let run = this.#deferred.find((entry) => entry.runId === runId);
    if (run === undefined) {
      run = { runId, events: [], atMs: [] };
      this.#deferred.push(run);
    }
    for (const event of events) {
      run.events.push(event);
      run.atMs.push(atMs);
    }
  }

  async listAfter(
    runId: string,
    afterSeq: number,
    limit: number,
    maxDataBytes = Number.MAX_SAFE_INTEGER,
  ): Promise<StoredRunEvent[]> {
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("run_events as e")
        .leftJoin("execution_history as h", (join) =>
          join.onRef("h.run_id", "=", "e.run_id").onRef("h.seq", "=", "e.history_seq"),
        )
        // The rows referenced events are rebuilt from, by primary key, in the same statement.
        .leftJoin("runs as r", (join) =>
          join
            .on("e.kind", "=", "run.status")
            .on("r.run_id", "=", sql<string>`case when e.ref_id = ${OWN_RUN} then e.run_id else e.ref_id end`),
        )
        .leftJoin("tool_calls as c", (join) =>
          join.on("e.kind", "=", "tool_call.status").onRef("c.call_id", "=", "e.ref_id"),
        )
        .leftJoin("model_requests as m", (join) =>
          join.on("e.kind", "=", "model.request").onRef("m.request_id", "=", "e.ref_id"),
        )
        .select(["e.run_id", "e.seq", "e.kind", "e.history_seq", "e.created_at_ms", "e.ref_id"])
        .select(RUN_FACT_COLUMNS.map((column) => sql.ref(`r.${column}`).as(`r_${column}`)))
        .select(CALL_FACT_COLUMNS.map((column) => sql.ref(`c.${column}`).as(`c_${column}`)))
        .select(MODEL_REQUEST_COLUMNS.map((column) => sql.ref(`m.${column}`).as(`m_${column}`)))
        // octet_length reads a text's size without its bytes (PostgreSQL: from the TOAST header), so
        // an oversized item is never loaded; the stream sends a reference to it instead.
        .select(sql<number>`octet_length(coalesce(e.data_json, h.item_json, 'null'))`.as("data_bytes"))
        .select(
          sql<
            string | null
          >`case when e.ref_id is not null or octet_length(coalesce(e.data_json, h.item_json, 'null')) <= cast(${maxDataBytes} as bigint) then e.data_json end`.as(
            "data_json",
          ),
        )
        .select(
          sql<
            string | null
          >`case when octet_length(coalesce(e.data_json, h.item_json, 'null')) <= cast(${maxDataBytes} as bigint) then h.item_json end`.as(
            "item_json",
          ),
        )
        .where("e.run_id", "=", runId)
        .where("e.seq", ">", afterSeq)
        .orderBy("e.seq")
        .limit(limit)
        .execute(),
    );
    return rows.map((row) => {
      const record = row as unknown as Record<string, unknown>;
      const history = row.history_seq === null ? null : Number(row.history_seq);
      const kind = row.kind as RunEventKind;
      const base = {
        run_id: row.run_id,
        seq: Number(row.seq),
        kind,
        history_seq: history,
        created_at_ms: row.created_at_ms,
      };
      if (row.ref_id !== null) {
        const refId = row.ref_id === OWN_RUN ? row.run_id : row.ref_id;
        return { ...base, data_json: null, data_bytes: 0, source: sourceOf(kind, refId, row.data_json, record) };
      }
      const bytes = Number(row.data_bytes);
      const fits = bytes <= maxDataBytes;
      return {
        ...base,
        data_json: !fits
          ? null
          : (row.data_json ??
            // The item's stored text goes in verbatim, as the history route serves it.
            `{"seq":${history},"item":${row.item_json ?? "null"}}`),
        data_bytes: bytes,
        source: null,
      };
    });
  }
}

/** The columns of a run that a `run.status` event shows as they are now (they never change). */
const RUN_FACT_COLUMNS = [
  "run_id",
  "session_id",
  "agent_id",
  "agent_version",
  "created_at_ms",
] as const satisfies readonly (keyof RunEventRunFacts)[];

/** The columns of a call that a `tool_call.status` event shows as they are now (they never change). */
const CALL_FACT_COLUMNS = [
  "call_id",
  "run_id",
  "turn",
  "position",
  "tool_name",
  "binding_id",
  "effect",
  "arguments_digest",
  "compensates",
  "deadline_ms",
  "created_at_ms",
] as const satisfies readonly (keyof RunEventCallFacts)[];

/** Every column of a model request (its row never changes). */
const MODEL_REQUEST_COLUMNS = [
  "request_id",
  "run_id",
  "turn",
  "purpose",
  "provider",
  "model",
  "request_bytes",
  "estimated_input_tokens",
  "actual_input_tokens",
  "output_tokens",
  "compacted",
  "latency_ms",
  "error_json",
  "created_at_ms",
] as const satisfies readonly (keyof ModelRequestsTable)[];

/** The columns of `row` named `prefix` + each of `columns`, without the prefix. */
function picked<C extends string>(row: Record<string, unknown>, prefix: string, columns: readonly C[]) {
  return Object.fromEntries(columns.map((column) => [column, row[`${prefix}${column}`]])) as Record<C, never>;
}

/** The source of a referenced event; its row missing is a corrupt database (throws). */
function sourceOf(
  kind: RunEventKind,
  refId: string,
  snapshot: string | null,
  row: Record<string, unknown>,
): RunEventSource {
  const missing = (what: string) => new Error(`run event of ${JSON.stringify(refId)}: its ${what} is not stored`);
  if (kind === "run.status") {
    if (row.r_run_id === null || snapshot === null) throw missing("run");
    return { kind, run: picked(row, "r_", RUN_FACT_COLUMNS), snapshot_json: snapshot };
  }
  if (kind === "tool_call.status") {
    if (row.c_call_id === null || snapshot === null) throw missing("call");
    return { kind, call: picked(row, "c_", CALL_FACT_COLUMNS), snapshot_json: snapshot };
  }
  if (kind === "model.request") {
    if (row.m_request_id === null) throw missing("model request");
    const request = picked(row, "m_", MODEL_REQUEST_COLUMNS) as unknown as ModelRequestsTable;
    return { kind, request: modelRequestFromRow(request) };
  }
  throw new Error(`a ${kind} event is never stored as a reference`);
}

/**
 * Appends `events` (event i made at `atMs[i]`) after the run's last one in ONE statement: the next
 * seq is read inside the INSERT. VALUES columns are named column1… on both dialects; the casts type
 * them for PostgreSQL.
 */
async function insertEvents(
  db: Db,
  runId: string,
  events: readonly NewRunEvent[],
  atMs: readonly number[],
): Promise<number[]> {
  const rows = sql.join(
    events.map(
      (event, index) =>
        sql`(cast(${index + 1} as integer), cast(${event.kind} as text), cast(${dataOf(event)} as text), cast(${"history_seq" in event ? event.history_seq : null} as integer), cast(${atMs[index]} as bigint), cast(${refOf(runId, event)} as text))`,
    ),
  );
  const { rows: inserted } = await sql<{ seq: number }>`
    insert into run_events (run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id)
    select cast(${runId} as text), last.seq + e.column1, e.column2, e.column3, e.column4, e.column5, e.column6
    from (select coalesce(max(seq), 0) as seq from run_events where run_id = ${runId}) as last,
      (values ${rows}) as e
    returning seq`.execute(db);
  return inserted.map((row) => Number(row.seq)).sort((a, b) => a - b);
}

/** What `ref_id` stores for `event`: the row it is rebuilt from (OWN_RUN for its own run), or nothing. */
function refOf(runId: string, event: NewRunEvent): string | null {
  if (!("ref_id" in event)) return null;
  return event.kind === "run.status" && event.ref_id === runId ? OWN_RUN : event.ref_id;
}

/** What `data_json` stores for `event`: its data, its snapshot, or nothing. */
function dataOf(event: NewRunEvent): string | null {
  if ("data_json" in event) return event.data_json;
  if ("snapshot_json" in event) return event.snapshot_json;
  return null;
}
