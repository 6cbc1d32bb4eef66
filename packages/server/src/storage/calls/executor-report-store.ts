/**
 * What `POST /v1/executors/{executor_id}/calls/report` reads: the reported calls that lie on the
 * connection's bindings, their runs' statuses, and the receipts the reporting executor sent for them
 * (never another executor's). Read-only; the decision is made by `decideReport`.
 */

import { isReceiptKind, RUN_STATUSES, type RunStatus } from "@toolhost/protocol";
import type { StoreContext } from "../engine/store-context.js";
import { CALL_COLUMNS, callFromRow } from "./call-row.js";
import type { ExecutorReportStore, ReportFacts, ReportReceipt } from "./contract.js";

/** The ExecutorReportStore over Kysely (both dialects). */
export class KyselyExecutorReportStore implements ExecutorReportStore {
  constructor(private readonly ctx: StoreContext) {}

  async reportFacts(
    callIds: readonly string[],
    bindingIds: readonly string[],
    executorId: string,
  ): Promise<Map<string, ReportFacts>> {
    const wanted = [...new Set(callIds)];
    const bindings = [...new Set(bindingIds)];
    const facts = new Map<string, ReportFacts>();
    if (wanted.length === 0 || bindings.length === 0) return facts;
    return this.ctx.read(async (db) => {
      const rows = await db
        .selectFrom("tool_calls as c")
        .innerJoin("runs as r", "r.run_id", "c.run_id")
        .select(CALL_COLUMNS.map((column) => `c.${column}` as const))
        .select("r.status as run_status")
        .where("c.call_id", "in", wanted)
        .where("c.binding_id", "in", bindings)
        .execute();
      const receipts = await db
        .selectFrom("receipts")
        .select(["call_id", "receipt_id", "kind", "claim_id", "seq"])
        .where("call_id", "in", wanted)
        .where("executor_id", "=", executorId)
        .orderBy("call_id")
        .orderBy("seq")
        .execute();
      const byCall = new Map<string, ReportReceipt[]>();
      for (const { call_id, kind, ...receipt } of receipts) {
        if (!isReceiptKind(kind)) throw new Error(`stored receipt of call ${call_id} has an unknown kind ${kind}`);
        const list = byCall.get(call_id) ?? [];
        list.push({ ...receipt, kind });
        byCall.set(call_id, list);
      }
      for (const { run_status, ...call } of rows) {
        if (!Object.hasOwn(RUN_STATUSES, run_status)) {
          throw new Error(`stored run ${call.run_id} has an unknown status ${run_status}`);
        }
        facts.set(call.call_id, {
          call: callFromRow(call),
          run_status: run_status as RunStatus,
          receipts: byCall.get(call.call_id) ?? [],
        });
      }
      return facts;
    });
  }
}
