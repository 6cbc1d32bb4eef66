/**
 * What the executor routes read and change of `tool_calls`: the claimable candidates of some bindings
 * (paged by creation time, then call ID), the business cancellations an executor must carry out, and
 * the release of an executor's unconfirmed claims when it goes offline. Candidates are read with their
 * ID, tool, binding, time and trace context columns only: arguments and grant hashes never leave this file.
 */

import { type CallStatus, RUN_STATUSES, type RunStatus, runFreezesCall } from "@toolhost/protocol";
import { sql } from "kysely";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { Db, StoreContext } from "../engine/store-context.js";
import { LIVE_BY_BINDING_STATUSES } from "../migrations/0024-binding-call-indexes.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { IdScope, Page, PageRequest } from "../records.js";
import { inScope } from "../scope-condition.js";
import {
  ACCEPTED,
  CLAIM_EDGES,
  CLAIMED,
  RELEASE_EDGES,
  type StoreCallMoves,
  UNKNOWN_OUTCOME,
} from "./call-statuses.js";
import type {
  CancellationRecord,
  CandidateCall,
  CandidateQuery,
  PendingCallStore,
  PollConnection,
  PolledCalls,
  ReleasedCall,
} from "./contract.js";
import { statusIn } from "./status-literals.js";

/** The table's paths each status-changing statement of this store takes (a test walks them). */
export const PENDING_CALL_MOVES: StoreCallMoves<"releaseClaimedBy"> = { releaseClaimedBy: [[RELEASE_EDGES.event]] };

const LIST = "pending_calls";

/** Run statuses that leave the run's own calls claimable (`runFreezesCall`, said in SQL below). */
const ACTIVE_RUN_STATUSES = (Object.keys(RUN_STATUSES) as RunStatus[]).filter(
  (status) => !runFreezesCall(status, { compensates: null }),
);
// The SQL's other half, "or a compensation call", holds only while no run status freezes those.
if ((Object.keys(RUN_STATUSES) as RunStatus[]).some((status) => runFreezesCall(status, { compensates: "call" }))) {
  throw new Error("runFreezesCall freezes compensation calls: the candidates query no longer says the same");
}

/** Statuses in which an executor holds a call and a business cancel can reach it. */
const HELD_STATUSES: CallStatus[] = [CLAIMED, ACCEPTED, UNKNOWN_OUTCOME];

/** The two kinds of claimable call: pending, or claimed with its accept window lapsed. */
type Branch = "pending" | "lapsed";

/**
 * One binding's claimable calls of one branch in an agent scope, oldest first, after `after`: an
 * ordered read of one index that stops at `limit` — the pending calls' partial index, or the lapsed
 * claims among the binding's few claimed calls (`tool_calls_live_by_binding`). An OR of both branches
 * in one query read every claimable row of the binding and sorted them (docs/storage.md).
 */
function branchQuery(
  db: Db,
  bindingId: string,
  branch: Branch,
  agents: IdScope,
  now: number,
  limit: number,
  after: { at: number; id: string } | undefined,
) {
  let select = db
    .selectFrom("tool_calls as c")
    .innerJoin("runs as r", "r.run_id", "c.run_id")
    .select(["c.run_id", "c.call_id", "c.tool_name", "c.binding_id", "c.created_at_ms", "c.trace_context"])
    .where("c.binding_id", "=", bindingId);
  select =
    branch === "pending"
      ? select.where(statusIn("c.status", CLAIM_EDGES.from))
      : // A claim whose accept window lapsed is claimable again (the claim releases and takes it over).
        select
          .where(statusIn("c.status", RELEASE_EDGES.from))
          // Redundant, and spelled as `tool_calls_live_by_binding`'s predicate: SQLite proves a partial
          // index's condition only from the same terms.
          .where(statusIn("c.status", LIVE_BY_BINDING_STATUSES))
          .where("c.accept_deadline_ms", "<", now);
  select = select
    .where("c.deadline_ms", ">", now)
    // A call whose business task was asked to stop is never handed to another executor.
    .where("c.cancel_requested_at_ms", "is", null)
    // Not frozen by the run's end (`runFreezesCall`): an active run, or a compensation call.
    .where((eb) => eb.or([eb("r.status", "in", ACTIVE_RUN_STATUSES), eb("c.compensates", "is not", null)]))
    .where(inScope("r.agent_id", agents))
    .orderBy("c.created_at_ms")
    .orderBy("c.call_id")
    .limit(limit);
  if (after !== undefined) {
    select = select.where((eb) => eb(eb.refTuple("c.created_at_ms", "c.call_id"), ">", eb.tuple(after.at, after.id)));
  }
  return select;
}

/** Every branch of every binding, each ordered and limited, as one UNION ALL (rows in no order). */
function candidatesQuery(
  db: Db,
  bindingIds: readonly string[],
  agents: IdScope,
  now: number,
  limit: number,
  after: { at: number; id: string } | undefined,
) {
  const parts = bindingIds.flatMap((bindingId) =>
    (["pending", "lapsed"] as const).map((branch) => branchQuery(db, bindingId, branch, agents, now, limit, after)),
  );
  const [first, ...rest] = parts.map((part, index) => db.selectFrom(part.as(`p${index}`)).selectAll());
  if (first === undefined) throw new Error("candidates of no binding");
  return rest.reduce((union, part) => union.unionAll(part), first);
}

// Every pending poll runs these: compiled once (reusable-query.ts).
const FIRST_PAGE_OF_ONE_BINDING = new ReusableQuery((db, bindingId: string, now: number, limit: number) =>
  candidatesQuery(db, [bindingId], "*", now, limit, undefined),
);

/** The calls `executorId` holds with a business cancel requested, oldest request first. */
function cancellationsQuery(db: Db, executorId: string, limit: number) {
  return (
    db
      .selectFrom("tool_calls")
      .select(["run_id", "call_id", "cancel_requested_at_ms"])
      .where("executor_id", "=", executorId)
      // Spelled as the partial index `tool_calls_held_cancellations` says it.
      .where("cancel_requested_at_ms", "is not", null)
      .where(statusIn("status", HELD_STATUSES))
      .orderBy("cancel_requested_at_ms")
      .orderBy("call_id")
      .limit(limit)
  );
}
const CANCELLATIONS = new ReusableQuery((db, executorId: string, limit: number) =>
  cancellationsQuery(db, executorId, limit),
);

/**
 * The usual poll in one statement: the first page of one binding's candidates (both branches) and
 * the executor's cancellations, as a UNION ALL of the ordered, limited queries (`kind` tells the rows
 * apart); `withConnection`: and one `connection` row when the connection named is the executor's
 * current one, of that key, online and leased (the executor's primary key: one row read).
 */
function firstPageWithCancellations(
  db: Db,
  bindingId: string,
  now: number,
  limit: number,
  executorId: string,
  cancellationLimit: number,
  connection?: { readonly connectionId: string; readonly keyId: string },
) {
  const candidates = (branch: Branch, alias: string) =>
    db
      .selectFrom(branchQuery(db, bindingId, branch, "*", now, limit, undefined).as(alias))
      .select([
        sql<string>`'candidate'`.as("kind"),
        sql<string>`${sql.ref(`${alias}.run_id`)}`.as("run_id"),
        sql<string>`${sql.ref(`${alias}.call_id`)}`.as("call_id"),
        sql<string>`${sql.ref(`${alias}.tool_name`)}`.as("tool_name"),
        sql<string>`${sql.ref(`${alias}.binding_id`)}`.as("binding_id"),
        sql<number>`${sql.ref(`${alias}.created_at_ms`)}`.as("at_ms"),
        sql<string | null>`${sql.ref(`${alias}.trace_context`)}`.as("trace_context"),
      ]);
  const query = candidates("pending", "a")
    .unionAll(candidates("lapsed", "l"))
    .unionAll(
      db
        .selectFrom(cancellationsQuery(db, executorId, cancellationLimit).as("b"))
        .select([
          sql<string>`'cancellation'`.as("kind"),
          "b.run_id",
          "b.call_id",
          sql<string>`null`.as("tool_name"),
          sql<string>`null`.as("binding_id"),
          sql<number>`b.cancel_requested_at_ms`.as("at_ms"),
          sql<string | null>`null`.as("trace_context"),
        ]),
    );
  if (connection === undefined) return query;
  return query.unionAll(
    db
      .selectFrom(liveConnectionQuery(db, executorId, connection.connectionId, connection.keyId, now).as("e"))
      .select([
        sql<string>`'connection'`.as("kind"),
        sql<string>`e.executor_id`.as("run_id"),
        sql<string>`e.connection_id`.as("call_id"),
        sql<string>`null`.as("tool_name"),
        sql<string>`null`.as("binding_id"),
        sql<number>`e.lease_expires_ms`.as("at_ms"),
        sql<string | null>`null`.as("trace_context"),
      ]),
  );
}

/** The executor's row when `connectionId` is its current connection, of `keyId`, online and leased at `now`. */
function liveConnectionQuery(db: Db, executorId: string, connectionId: string, keyId: string, now: number) {
  return db
    .selectFrom("executors")
    .select(["executor_id", "connection_id", "lease_expires_ms"])
    .where("executor_id", "=", executorId)
    .where("connection_id", "=", connectionId)
    .where("key_id", "=", keyId)
    .where("online", "=", 1)
    .where("lease_expires_ms", ">", now);
}

// Every pending poll runs one of these: compiled once (reusable-query.ts).
const FIRST_PAGE_WITH_CANCELLATIONS = new ReusableQuery(
  (db, bindingId: string, now: number, limit: number, executorId: string, cancellationLimit: number) =>
    firstPageWithCancellations(db, bindingId, now, limit, executorId, cancellationLimit),
);
const FIRST_PAGE_WITH_CANCELLATIONS_AND_CONNECTION = new ReusableQuery(
  (
    db,
    bindingId: string,
    now: number,
    limit: number,
    executorId: string,
    cancellationLimit: number,
    connectionId: string,
    keyId: string,
  ) => firstPageWithCancellations(db, bindingId, now, limit, executorId, cancellationLimit, { connectionId, keyId }),
);

/** Orders rows by time, then call ID (code point order, as the "C" collation of the ID columns). */
function byTimeThenId<T extends { call_id: string }>(at: (row: T) => number): (a: T, b: T) => number {
  return (a, b) => at(a) - at(b) || (a.call_id < b.call_id ? -1 : a.call_id > b.call_id ? 1 : 0);
}

/** The PendingCallStore over Kysely (both dialects). */
export class KyselyPendingCallStore implements PendingCallStore {
  constructor(private readonly ctx: StoreContext) {}

  async candidates(query: CandidateQuery, page: PageRequest): Promise<Page<CandidateCall>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    const bindingIds = [...new Set(query.binding_ids)];
    if (bindingIds.length === 0) return { items: [], next_cursor: null };
    const now = query.now_ms;
    const [only, ...more] = bindingIds;
    return this.ctx.read(async (db) => {
      // The usual poll (one binding, every agent, first page) runs the statement compiled once.
      const rows: CandidateCall[] =
        only !== undefined && more.length === 0 && query.agents === "*" && after === undefined
          ? (await FIRST_PAGE_OF_ONE_BINDING.execute(this.ctx.dialect, db, only, now, page.limit + 1)).rows
          : await candidatesQuery(db, bindingIds, query.agents, now, page.limit + 1, after).execute();
      // Each part was ordered and limited; their union is merged here (a few pages of rows at most).
      const merged = rows
        .map((row) => ({ ...row, created_at_ms: Number(row.created_at_ms) }))
        .sort(byTimeThenId((row) => row.created_at_ms))
        .slice(0, page.limit + 1);
      return pageOf(merged, page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.call_id }),
      );
    });
  }

  async cancellationsFor(executorId: string, limit: number): Promise<CancellationRecord[]> {
    const { rows } = await this.ctx.read((db) => CANCELLATIONS.execute(this.ctx.dialect, db, executorId, limit));
    return rows.map(({ run_id, call_id, cancel_requested_at_ms }) => ({
      run_id,
      call_id,
      requested_at_ms: cancel_requested_at_ms as number,
    }));
  }

  async poll(
    query: CandidateQuery,
    page: PageRequest,
    cancellations: { readonly executor_id: string; readonly limit: number },
    connection?: PollConnection,
  ): Promise<PolledCalls> {
    const bindingIds = [...new Set(query.binding_ids)];
    const [only, ...more] = bindingIds;
    if (only === undefined || more.length > 0 || query.agents !== "*" || page.cursor !== null) {
      const [candidates, held, live] = await Promise.all([
        this.candidates(query, page),
        this.cancellationsFor(cancellations.executor_id, cancellations.limit),
        connection === undefined
          ? undefined
          : this.#connectionLive(cancellations.executor_id, connection, query.now_ms),
      ]);
      return { candidates, cancellations: held, ...(live === undefined ? {} : { connection_live: live }) };
    }
    const { dialect } = this.ctx;
    const { executor_id: executorId, limit: cancellationLimit } = cancellations;
    const first = [only, query.now_ms, page.limit + 1, executorId, cancellationLimit] as const;
    const { rows } = await this.ctx.read((db) =>
      connection === undefined
        ? FIRST_PAGE_WITH_CANCELLATIONS.execute(dialect, db, ...first)
        : FIRST_PAGE_WITH_CANCELLATIONS_AND_CONNECTION.execute(
            dialect,
            db,
            ...first,
            connection.connection_id,
            connection.key_id,
          ),
    );
    const candidateRows: CandidateCall[] = [];
    const held: CancellationRecord[] = [];
    let live = false;
    for (const row of rows) {
      if (row.kind === "candidate") {
        candidateRows.push({
          run_id: row.run_id,
          call_id: row.call_id,
          tool_name: row.tool_name,
          binding_id: row.binding_id,
          created_at_ms: Number(row.at_ms),
          trace_context: row.trace_context,
        });
      } else if (row.kind === "connection") {
        live = true;
      } else {
        held.push({ run_id: row.run_id, call_id: row.call_id, requested_at_ms: Number(row.at_ms) });
      }
    }
    // A UNION ALL promises no order: the parts are merged again as their queries ordered them.
    candidateRows.sort(byTimeThenId((row) => row.created_at_ms));
    held.sort(byTimeThenId((row) => row.requested_at_ms));
    return {
      candidates: pageOf(candidateRows.slice(0, page.limit + 1), page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.call_id }),
      ),
      cancellations: held,
      ...(connection === undefined ? {} : { connection_live: live }),
    };
  }

  async #connectionLive(executorId: string, connection: PollConnection, nowMs: number): Promise<boolean> {
    const row = await this.ctx.read((db) =>
      liveConnectionQuery(db, executorId, connection.connection_id, connection.key_id, nowMs).executeTakeFirst(),
    );
    return row !== undefined;
  }

  async releaseClaimedBy(executorId: string, nowMs: number): Promise<ReleasedCall[]> {
    return this.ctx.write((db) =>
      db
        .updateTable("tool_calls")
        .set({
          status: RELEASE_EDGES.to,
          executor_id: null,
          claim_id: null,
          grant_hash: null,
          claimed_at_ms: null,
          accept_deadline_ms: null,
          updated_at_ms: nowMs,
        })
        .where("executor_id", "=", executorId)
        .where("status", "in", RELEASE_EDGES.from)
        .returning(["run_id", "call_id", "binding_id", "tool_name", "cancel_requested_at_ms"])
        .execute(),
    );
  }
}
