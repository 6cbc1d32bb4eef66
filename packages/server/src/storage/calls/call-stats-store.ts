/**
 * What binding diagnostics read of `tool_calls`: how many of one agent's calls on one binding wait in
 * each unsettled status, how old the oldest pending one is, and the latest call an executor completed;
 * and the server-wide counts the metrics report.
 */

import type { CallStatus } from "@toolhost/protocol";
import type { StoreContext } from "../engine/store-context.js";
import { LIVE_BY_BINDING_STATUSES } from "../migrations/0024-binding-call-indexes.js";
import type {
  BindingCallCounts,
  BindingLoadSnapshot,
  CallStatsSnapshot,
  CallStatsStore,
  VerifiedExecutionRecord,
} from "./contract.js";
import { statusIn, statusIs } from "./status-literals.js";

/** The unsettled statuses, as `tool_calls_live_by_binding` lists them (spelled as literals, status-literals.ts). */
const COUNTED: readonly CallStatus[] = LIVE_BY_BINDING_STATUSES;

/** The CallStatsStore over Kysely (both dialects). */
export class KyselyCallStatsStore implements CallStatsStore {
  constructor(private readonly ctx: StoreContext) {}

  async snapshot(): Promise<CallStatsSnapshot> {
    const [rows, online] = await Promise.all([
      // Only the unsettled calls, through `tool_calls_live_by_binding`: a scrape costs what the live
      // work is, not what retention keeps of the settled calls.
      this.ctx.read((db) =>
        db
          .selectFrom("tool_calls")
          .select((eb) => ["status", eb.fn.countAll<number>().as("n"), eb.fn.min("created_at_ms").as("oldest")])
          .where(statusIn("status", COUNTED))
          .groupBy("status")
          .execute(),
      ),
      this.ctx.read((db) =>
        db
          .selectFrom("executors")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("online", "=", 1)
          .executeTakeFirst(),
      ),
    ]);
    const calls: Record<string, number> = Object.fromEntries(COUNTED.map((status) => [status, 0]));
    let oldestPending: number | null = null;
    for (const row of rows) {
      calls[row.status] = Number(row.n);
      if (row.status === "pending" && row.oldest !== null) oldestPending = Number(row.oldest);
    }
    return {
      calls_by_status: calls,
      oldest_pending_created_at_ms: oldestPending,
      executors_online: Number(online?.n ?? 0),
    };
  }

  async bindingLoad(): Promise<BindingLoadSnapshot> {
    const [pending, online] = await Promise.all([
      this.ctx.read((db) =>
        db
          .selectFrom("tool_calls")
          .select((eb) => ["binding_id", eb.fn.countAll<number>().as("n")])
          .where(statusIs("status", "pending"))
          .groupBy("binding_id")
          .execute(),
      ),
      this.ctx.read((db) => db.selectFrom("executors").select("binding_ids_json").where("online", "=", 1).execute()),
    ]);
    const pendingByBinding: Record<string, number> = {};
    for (const row of pending) pendingByBinding[row.binding_id] = Number(row.n);
    const onlineByBinding: Record<string, number> = {};
    for (const row of online) {
      for (const bindingId of JSON.parse(row.binding_ids_json) as string[]) {
        onlineByBinding[bindingId] = (onlineByBinding[bindingId] ?? 0) + 1;
      }
    }
    return { pending_by_binding: pendingByBinding, executors_online_by_binding: onlineByBinding };
  }

  async countsFor(agentId: string, bindingId: string): Promise<BindingCallCounts> {
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("tool_calls as c")
        .innerJoin("runs as r", "r.run_id", "c.run_id")
        .select((eb) => ["c.status", eb.fn.countAll<number>().as("n"), eb.fn.min("c.created_at_ms").as("oldest")])
        .where("r.agent_id", "=", agentId)
        .where("c.binding_id", "=", bindingId)
        .where(statusIn("c.status", COUNTED))
        .groupBy("c.status")
        .execute(),
    );
    const counts = { pending: 0, claimed: 0, accepted: 0, reconciliation_required: 0 };
    let oldestPending: number | null = null;
    for (const row of rows) {
      const status = row.status as keyof typeof counts;
      if (!Object.hasOwn(counts, status)) continue;
      counts[status] = Number(row.n);
      if (status === "pending" && row.oldest !== null) oldestPending = Number(row.oldest);
    }
    return { ...counts, oldest_pending_created_at_ms: oldestPending };
  }

  async lastCompleted(agentId: string, bindingId: string): Promise<VerifiedExecutionRecord | undefined> {
    const row = await this.ctx.read((db) =>
      db
        .selectFrom("tool_calls as c")
        .innerJoin("runs as r", "r.run_id", "c.run_id")
        .select(["c.run_id", "c.call_id", "c.tool_name", "c.executor_id", "c.settled_at_ms"])
        .where("r.agent_id", "=", agentId)
        .where("c.binding_id", "=", bindingId)
        // Read backwards in `tool_calls_completed_by_binding`, to the first of the agent's.
        .where(statusIs("c.status", "completed"))
        .where("c.executor_id", "is not", null)
        .where("c.settled_at_ms", "is not", null)
        .orderBy("c.settled_at_ms", "desc")
        .orderBy("c.call_id", "desc")
        .limit(1)
        .executeTakeFirst(),
    );
    if (row === undefined || row.executor_id === null || row.settled_at_ms === null) return undefined;
    return { ...row, executor_id: row.executor_id, settled_at_ms: row.settled_at_ms };
  }
}
