/**
 * `POST /v1/executors/{executor_id}/calls/report`: an executor (typically after a restart) lists the
 * calls its journal holds as pending delivery or pending reconciliation; per call the server answers
 * what it has and what to do (`decideReport`). Read-only: a report never changes a call. Calls outside
 * the connection's bindings (or the key's binding scope) answer like unknown ones.
 */

import type { ReportAnswer, ReportRequest } from "@toolhost/protocol/wire";
import { inIdScope } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { callReportWire } from "./executor-wire.js";
import { decideReport, factsOfReportedClaim } from "./report-decision.js";

/** The report answer for `body`, from `executor`'s live connection. */
export async function reportCalls(
  context: { readonly storage: Storage },
  identity: Identity,
  executor: ExecutorRecord,
  body: ReportRequest,
): Promise<ReportAnswer> {
  const bindingIds = executor.binding_ids.filter((bindingId) => inIdScope(identity.bindings, bindingId));
  const facts = await context.storage.executorReports.reportFacts(
    body.calls.map((call) => call.call_id),
    bindingIds,
    executor.executor_id,
  );
  return {
    executor_id: executor.executor_id,
    calls: body.calls.map((reported) => {
      const found = factsOfReportedClaim(reported, facts.get(reported.call_id));
      return callReportWire(reported, found, decideReport(executor.executor_id, reported, found));
    }),
  };
}
