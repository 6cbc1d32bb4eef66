/**
 * The claim columns of `tool_calls`. Every status change is ONE conditional UPDATE whose WHERE holds
 * the status (and claim) it moves from, so concurrent requests — on one SQLite file or on several
 * PostgreSQL instances — can never both win: the row changes for the first, the others match nothing.
 * The statuses in the SQL are read from the call transition table (`CALL_CLAIM_MOVES`).
 */

import { type CallStatus, RUN_STATUSES, type RunStatus, transitionCall } from "@toolhost/protocol";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import type { CallRecord } from "../records.js";
import { acceptCall, acceptCallRecorded } from "./accept-call-query.js";
import { loadCallContext } from "./call-context-query.js";
import { callFromRow } from "./call-row.js";
import {
  ACCEPT_EDGES,
  CLAIM_EDGES,
  DEADLINE_EVENT,
  isEdgeOf,
  RECEIPT_SETTLE_EVENTS,
  RELEASE_EDGES,
  type StoreCallMoves,
} from "./call-statuses.js";
import { claimCall } from "./claim-call-query.js";
import type {
  CallClaimStore,
  CallContext,
  CallContextInput,
  CallRef,
  CallTarget,
  ClaimHolder,
  ClaimInput,
  SettledCall,
} from "./contract.js";
import type { NewReceipt } from "./insert-receipt-query.js";
import { settleCall } from "./settle-call-query.js";
import { statusIn } from "./status-literals.js";

/** The table's paths each status-changing statement of this store takes (a test walks them). */
export const CALL_CLAIM_MOVES: StoreCallMoves<"claim" | "accept" | "settle" | "releaseLapsedClaims" | "settleOverdue"> =
  {
    // A claim also takes over a claim whose accept window lapsed: release and claim in one statement.
    claim: [[CLAIM_EDGES.event], [RELEASE_EDGES.event, CLAIM_EDGES.event]],
    accept: [[ACCEPT_EDGES.event]],
    settle: RECEIPT_SETTLE_EVENTS.map((event) => [event]),
    releaseLapsedClaims: [[RELEASE_EDGES.event]],
    settleOverdue: [[DEADLINE_EVENT]],
  };

// The statements of every claim and receipt, compiled once (reusable-query.ts).

const LOCK_RUN = new ReusableQuery((db, runId: string) =>
  db.selectFrom("runs").select("run_id").where("run_id", "=", runId).forUpdate(),
);

/** The call with what the claim and receipt flows need of its run (`lock`: FOR UPDATE of the call). */
function targetQuery(lock: boolean) {
  return new ReusableQuery((db, callId: string, runId: string) => {
    const query = db
      .selectFrom("tool_calls as c")
      .innerJoin("runs as r", "r.run_id", "c.run_id")
      .innerJoin("agent_versions as v", "v.agent_version", "r.agent_version")
      .selectAll("c")
      .select([
        "r.status as run_status",
        "r.agent_id as run_agent_id",
        "r.agent_version as run_agent_version",
        "r.subject as run_subject",
        "v.toolset_id as run_toolset_id",
        "v.toolset_version as run_toolset_version",
      ])
      .where("c.call_id", "=", callId)
      .where("c.run_id", "=", runId);
    return lock ? query.forUpdate("c") : query;
  });
}
const TARGET = targetQuery(false);
const TARGET_FOR_UPDATE = targetQuery(true);

/** The CallClaimStore over Kysely (both dialects). */
export class KyselyCallClaimStore implements CallClaimStore {
  constructor(private readonly ctx: StoreContext) {}

  async target(runId: string, callId: string): Promise<CallTarget | undefined> {
    const lock = this.ctx.inTransaction && this.ctx.dialect === "postgres";
    const dialect = this.ctx.dialect;
    return this.ctx.read(async (db) => {
      // Run first, then call: the lock order of every flow that settles calls (no deadlock with run cancel).
      if (lock) await LOCK_RUN.execute(dialect, db, runId);
      const row = await (lock ? TARGET_FOR_UPDATE : TARGET).takeFirst(dialect, db, callId, runId);
      if (row === undefined) return undefined;
      const { run_status, run_agent_id, run_agent_version, run_subject, run_toolset_id, run_toolset_version, ...call } =
        row;
      if (!Object.hasOwn(RUN_STATUSES, run_status))
        throw new Error(`stored run ${runId} has an unknown status ${run_status}`);
      return {
        call: callFromRow(call),
        run: {
          status: run_status as RunStatus,
          agent_id: run_agent_id,
          agent_version: run_agent_version,
          subject: run_subject,
          toolset_id: run_toolset_id,
          toolset_version: run_toolset_version,
        },
      };
    });
  }

  async context(input: CallContextInput & { readonly receipt: boolean }): Promise<CallContext> {
    const { dialect, inTransaction } = this.ctx;
    const locked = inTransaction && dialect === "postgres";
    const kind = !input.receipt
      ? "claim"
      : input.whole_run === true
        ? locked
          ? "settleLocked"
          : "settle"
        : locked
          ? "receiptLocked"
          : "receipt";
    return this.ctx.read((db) => loadCallContext(db, dialect, kind, input));
  }

  async claim(input: ClaimInput): Promise<boolean> {
    return this.ctx.write((db) => claimCall(this.ctx.dialect, db, input));
  }

  async accept(holder: ClaimHolder, nowMs: number): Promise<CallRecord | undefined> {
    const { call_id, claim_id, key_id } = holder;
    return this.ctx.write((db) => acceptCall(this.ctx.dialect, db, { call_id, claim_id, key_id, now_ms: nowMs }));
  }

  async acceptRecorded(holder: ClaimHolder, nowMs: number, receipt: NewReceipt): Promise<void> {
    const { call_id, claim_id, key_id } = holder;
    const input = { call_id, claim_id, key_id, now_ms: nowMs };
    // Two statements on SQLite: atomic only inside a transaction (the receipt flow's).
    return this.ctx.atomic((db) => acceptCallRecorded(this.ctx.dialect, db, input, receipt));
  }

  async settle(holder: ClaimHolder, from: CallStatus, to: CallStatus, nowMs: number): Promise<SettledCall | undefined> {
    if (!isEdgeOf(RECEIPT_SETTLE_EVENTS, from, to)) throw new Error(`no receipt moves a call from ${from} to ${to}`);
    const { call_id, claim_id, key_id } = holder;
    return this.ctx.write((db) =>
      settleCall(this.ctx.dialect, db, { call_id, claim_id, key_id, from, to, now_ms: nowMs }),
    );
  }

  async releaseLapsedClaims(nowMs: number, limit: number): Promise<CallRecord[]> {
    // A read first: most ticks find nothing, and then no write (no commit, no fsync) happens at all.
    const lapsed = await this.ctx.read((db) =>
      db
        .selectFrom("tool_calls")
        .select("call_id")
        // Spelled as the partial index `tool_calls_claims_by_accept_deadline` says it (migration 0014).
        .where(statusIn("status", RELEASE_EDGES.from))
        .where("claimed_at_ms", "is not", null)
        .where("accept_deadline_ms", "<", nowMs)
        .orderBy("accept_deadline_ms")
        .orderBy("call_id")
        .limit(limit)
        .execute(),
    );
    if (lapsed.length === 0) return [];
    return this.ctx.write(async (db) => {
      const rows = await db
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
        .where(
          "call_id",
          "in",
          lapsed.map((row) => row.call_id),
        )
        // Still lapsed when the UPDATE runs: a claim accepted or re-claimed meanwhile is left alone.
        .where("status", "in", RELEASE_EDGES.from)
        .where("accept_deadline_ms", "<", nowMs)
        .returningAll()
        .execute();
      return rows.map(callFromRow);
    });
  }

  async overdue(statuses: readonly CallStatus[], nowMs: number, limit: number): Promise<CallRef[]> {
    if (statuses.length === 0) return [];
    return this.ctx.read((db) =>
      db
        .selectFrom("tool_calls")
        .select(["run_id", "call_id"])
        // Literal statuses: the deadline statuses are those of the partial index `tool_calls_live_by_deadline`.
        .where(statusIn("status", statuses))
        .where("deadline_ms", "<=", nowMs)
        .orderBy("deadline_ms")
        .orderBy("call_id")
        .limit(limit)
        .execute(),
    );
  }

  async settleOverdue(
    callId: string,
    from: CallStatus,
    to: CallStatus,
    nowMs: number,
  ): Promise<CallRecord | undefined> {
    const edge = transitionCall(from, DEADLINE_EVENT);
    if (!edge.ok || edge.to !== to) throw new Error(`the deadline does not move a call from ${from} to ${to}`);
    return this.ctx.write(async (db) => {
      const row = await db
        .updateTable("tool_calls")
        .set((eb) => ({
          status: to,
          settled_at_ms: eb.fn.coalesce("settled_at_ms", eb.val(nowMs)),
          updated_at_ms: nowMs,
        }))
        .where("call_id", "=", callId)
        .where("status", "=", from)
        .where("deadline_ms", "<=", nowMs)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : callFromRow(row);
    });
  }
}
