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
import { compilableSql, ShapedReusableQuery } from "../engine/reusable-query.js";
import type { Db, StoreContext } from "../engine/store-context.js";
import type {
  NewRunEvent,
  RunEventCallFacts,
  RunEventKind,
  RunEventRunFacts,
  RunEventSource,
  StoredRunEvent,
} from "../records.js";
import type { Dialect } from "../storage.js";
import type { RunEventStore } from "./contract.js";
import { MODEL_REQUEST_COLUMNS, modelRequestFromRow } from "./model-request-store.js";
import { BATCH_KIND, type BatchedEvent, OWN_RUN, planRows, readBatch } from "./run-event-batch.js";

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
        this.ctx.dialect,
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
        // No seq is read back: on PostgreSQL the inserts leave with COMMIT (ReusableQuery.send).
        for (const run of deferred) await sendEvents(this.ctx.dialect, db, run.runId, run.events, run.atMs);
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
    return this.ctx.read(async (db) => {
      // Each row holds at least one event after afterSeq (a batch row's seq is its last event's), so
      // `limit` rows hold at least `limit` of them.
      const rows = await db
        .selectFrom("run_events as e")
        .leftJoin("execution_history as h", (join) =>
          join.onRef("h.run_id", "=", "e.run_id").onRef("h.seq", "=", "e.history_seq"),
        )
        // The rows referenced events are rebuilt from, by primary key, in the same statement.
        // (A batch row comes with its own run's facts, which its `run.status` events mostly name.)
        .leftJoin("runs as r", (join) =>
          join
            .on("e.kind", "in", ["run.status", BATCH_KIND])
            .on(
              "r.run_id",
              "=",
              sql<string>`case when e.kind = ${BATCH_KIND} or e.ref_id = ${OWN_RUN} then e.run_id else e.ref_id end`,
            ),
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
          >`case when e.kind = ${BATCH_KIND} or e.ref_id is not null or octet_length(coalesce(e.data_json, h.item_json, 'null')) <= cast(${maxDataBytes} as bigint) then e.data_json end`.as(
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
        .execute();
      const events: (StoredRunEvent | BatchedEvent)[] = [];
      let ownRun: RunEventRunFacts | undefined;
      for (const row of rows) {
        if (row.kind === BATCH_KIND) {
          const batched = readBatch(String(row.data_json), Number(row.seq), Number(row.created_at_ms));
          for (const event of batched) if (event.seq > afterSeq) events.push(event);
          if (row.r_run_id !== null) ownRun = picked(row as unknown as Record<string, unknown>, "r_", RUN_FACT_COLUMNS);
          continue;
        }
        events.push(singleEvent(row as unknown as Record<string, unknown>, maxDataBytes));
      }
      return resolveBatched(db, runId, events.slice(0, limit), maxDataBytes, ownRun);
    });
  }
}

/** The event a row of its own holds, its referenced row (joined in) as its source. */
function singleEvent(record: Record<string, unknown>, maxDataBytes: number): StoredRunEvent {
  const runId = String(record.run_id);
  const history = record.history_seq === null ? null : Number(record.history_seq);
  const kind = record.kind as RunEventKind;
  const base = {
    run_id: runId,
    seq: Number(record.seq),
    kind,
    history_seq: history,
    created_at_ms: record.created_at_ms as number,
  };
  const dataJson = record.data_json as string | null;
  if (record.ref_id !== null) {
    const refId = record.ref_id === OWN_RUN ? runId : String(record.ref_id);
    const facts = {
      run: record.r_run_id === null ? undefined : picked(record, "r_", RUN_FACT_COLUMNS),
      call: record.c_call_id === null ? undefined : picked(record, "c_", CALL_FACT_COLUMNS),
      request: record.m_request_id === null ? undefined : picked(record, "m_", MODEL_REQUEST_COLUMNS),
    };
    return { ...base, data_json: null, data_bytes: 0, source: sourceOf(kind, refId, dataJson, facts) };
  }
  const bytes = Number(record.data_bytes);
  const fits = bytes <= maxDataBytes;
  return {
    ...base,
    data_json: !fits
      ? null
      : (dataJson ??
        // The item's stored text goes in verbatim, as the history route serves it.
        `{"seq":${history},"item":${(record.item_json as string | null) ?? "null"}}`),
    data_bytes: bytes,
    source: null,
  };
}

/**
 * `events` with those read out of batch rows made whole: their history items and referenced rows
 * read by primary key, one statement per kind present (history items over `maxDataBytes` by their
 * size only, as for a row of its own).
 */
async function resolveBatched(
  db: Db,
  runId: string,
  events: readonly (StoredRunEvent | BatchedEvent)[],
  maxDataBytes: number,
  ownRun: RunEventRunFacts | undefined,
): Promise<StoredRunEvent[]> {
  const batched = events.filter((event): event is BatchedEvent => !("data_bytes" in event));
  if (batched.length === 0) return events as StoredRunEvent[];
  const wanted = (kind: RunEventKind) => [
    ...new Set(
      batched.flatMap((event) =>
        event.kind !== kind
          ? []
          : [event.kind === "history.item" ? String(event.history_seq) : refOfBatched(runId, event)],
      ),
    ),
  ];
  const historySeqs = wanted("history.item").map(Number);
  const runIds = wanted("run.status").filter((id) => id !== ownRun?.run_id);
  const callIds = wanted("tool_call.status");
  const requestIds = wanted("model.request");
  // One after another: inside a transaction they share its connection anyway.
  const items =
    historySeqs.length === 0
      ? []
      : await db
          .selectFrom("execution_history")
          .select("seq")
          .select(sql<number>`octet_length(item_json)`.as("data_bytes"))
          .select(
            sql<
              string | null
            >`case when octet_length(item_json) <= cast(${maxDataBytes} as bigint) then item_json end`.as("item_json"),
          )
          .where("run_id", "=", runId)
          .where("seq", "in", historySeqs)
          .execute();
  const runs =
    runIds.length === 0
      ? []
      : await db.selectFrom("runs").select(RUN_FACT_COLUMNS).where("run_id", "in", runIds).execute();
  const calls =
    callIds.length === 0
      ? []
      : await db.selectFrom("tool_calls").select(CALL_FACT_COLUMNS).where("call_id", "in", callIds).execute();
  const requests =
    requestIds.length === 0
      ? []
      : await db
          .selectFrom("model_requests")
          .select(MODEL_REQUEST_COLUMNS)
          .where("request_id", "in", requestIds)
          .execute();
  const itemsBySeq = new Map(items.map((item) => [Number(item.seq), item]));
  const runsById = new Map<string, RunEventRunFacts>(runs.map((run) => [run.run_id, run]));
  if (ownRun !== undefined) runsById.set(ownRun.run_id, ownRun);
  const callsById = new Map(calls.map((call) => [call.call_id, call]));
  const requestsById = new Map(requests.map((request) => [request.request_id, request]));
  return events.map((event) => {
    if ("data_bytes" in event) return event;
    const base = { run_id: runId, seq: event.seq, kind: event.kind, created_at_ms: event.created_at_ms };
    if (event.kind === "history.item") {
      const item = itemsBySeq.get(event.history_seq);
      if (item === undefined)
        throw new Error(`run event ${event.seq}: history item ${event.history_seq} is not stored`);
      const bytes = Number(item.data_bytes);
      return {
        ...base,
        history_seq: event.history_seq,
        data_json: bytes <= maxDataBytes ? `{"seq":${event.history_seq},"item":${item.item_json}}` : null,
        data_bytes: bytes,
        source: null,
      };
    }
    const refId = refOfBatched(runId, event);
    const facts = { run: runsById.get(refId), call: callsById.get(refId), request: requestsById.get(refId) };
    return {
      ...base,
      history_seq: null,
      data_json: null,
      data_bytes: 0,
      source: sourceOf(event.kind, refId, event.snapshot_json, facts),
    };
  });
}

/** The ID of the row a batched reference event names. */
function refOfBatched(runId: string, event: BatchedEvent & { ref_id: string }): string {
  return event.kind === "run.status" && event.ref_id === OWN_RUN ? runId : event.ref_id;
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

/** The columns of `row` named `prefix` + each of `columns`, without the prefix. */
function picked<C extends string>(row: Record<string, unknown>, prefix: string, columns: readonly C[]) {
  return Object.fromEntries(columns.map((column) => [column, row[`${prefix}${column}`]])) as Record<C, never>;
}

/** The source of a referenced event; its row missing is a corrupt database (throws). */
function sourceOf(
  kind: RunEventKind,
  refId: string,
  snapshot: string | null,
  facts: { run?: RunEventRunFacts; call?: RunEventCallFacts; request?: ModelRequestsTable },
): RunEventSource {
  const missing = (what: string) => new Error(`run event of ${JSON.stringify(refId)}: its ${what} is not stored`);
  if (kind === "run.status") {
    if (facts.run === undefined || snapshot === null) throw missing("run");
    return { kind, run: facts.run, snapshot_json: snapshot };
  }
  if (kind === "tool_call.status") {
    if (facts.call === undefined || snapshot === null) throw missing("call");
    return { kind, call: facts.call, snapshot_json: snapshot };
  }
  if (kind === "model.request") {
    if (facts.request === undefined) throw missing("model request");
    return { kind, request: modelRequestFromRow(facts.request) };
  }
  throw new Error(`a ${kind} event is never stored as a reference`);
}

/**
 * The events' INSERT, compiled once per number of rows (reusable-query.ts); values: the run's ID,
 * then six per row (see insertEvents). Up to 64 rows keep their form; more are compiled each time.
 */
const INSERT_EVENTS = new ShapedReusableQuery(64, (db, count: number, values) => {
  const rows = sql.join(
    Array.from({ length: count }, (_, index) => {
      const [through, kind, data, historySeq, atMs, ref] = values.slice(1 + 6 * index, 7 + 6 * index);
      return sql`(cast(${through} as integer), cast(${kind} as text), cast(${data} as text), cast(${historySeq} as integer), cast(${atMs} as bigint), cast(${ref} as text))`;
    }),
  );
  return compilableSql(
    db,
    sql<{ seq: number }>`
    insert into run_events (run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id)
    select cast(${values[0]} as text), last.seq + e.column1, e.column2, e.column3, e.column4, e.column5, e.column6
    from (select coalesce(max(seq), 0) as seq from run_events where run_id = ${values[0]}) as last,
      (values ${rows}) as e
    returning seq`,
  );
});

/**
 * Appends `events` (event i made at `atMs[i]`) after the run's last one in ONE statement, the small
 * ones sharing batch rows (`run-event-batch.ts`): the next seq is read inside the INSERT, and each
 * row's seq is that plus the position of its last event. VALUES columns are named column1… on both
 * dialects; the casts type them for PostgreSQL.
 */
async function insertEvents(
  dialect: Dialect,
  db: Db,
  runId: string,
  events: readonly NewRunEvent[],
  atMs: readonly number[],
): Promise<number[]> {
  const { count, values } = insertValues(runId, events, atMs);
  const { rows: inserted } = await INSERT_EVENTS.execute(dialect, db, count, values);
  const lastSeq = Math.max(...inserted.map((row) => Number(row.seq)));
  return events.map((_, index) => lastSeq - events.length + 1 + index);
}

/** `insertEvents` for its effect only: its seqs are not read (inside a PostgreSQL transaction it is not waited for). */
async function sendEvents(
  dialect: Dialect,
  db: Db,
  runId: string,
  events: readonly NewRunEvent[],
  atMs: readonly number[],
): Promise<void> {
  const { count, values } = insertValues(runId, events, atMs);
  await INSERT_EVENTS.send(dialect, db, count, values);
}

/** The rows `events` are stored as (how many) and the statement's values for them. */
function insertValues(
  runId: string,
  events: readonly NewRunEvent[],
  atMs: readonly number[],
): { count: number; values: unknown[] } {
  const planned = planRows(runId, events, atMs);
  // Per row: the position of its last event, kind, data, history seq, time, reference.
  const values: unknown[] = [runId];
  let through = 0;
  for (const row of planned) {
    through += row.batch ? row.count : 1;
    if (row.batch) values.push(through, BATCH_KIND, row.dataJson, null, row.atMs, null);
    else {
      const event = row.event;
      const historySeq = "history_seq" in event ? event.history_seq : null;
      values.push(through, event.kind, dataOf(event), historySeq, row.atMs, refOf(runId, event));
    }
  }
  return { count: planned.length, values };
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
