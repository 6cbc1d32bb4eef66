/**
 * `GET /v1/runs/{run_id}/tool-calls/{call_id}/receipts` (`runtime:read`): the receipts stored for one
 * call, in arrival order, without their bodies — what a call's timeline shows (accepted, progress,
 * final, late). 404 when the run lies outside the agent scope or the call is not the run's.
 */

import { CallReceipts, RunCallParams, type StoredReceipt } from "@toolhost/protocol/wire";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime } from "../http/wire-time.js";
import type { ReceiptRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";

/** The listed form of a stored receipt (no body, its size instead). */
export function storedReceiptOf(receipt: ReceiptRecord): StoredReceipt {
  return {
    receipt_id: receipt.receipt_id,
    seq: receipt.seq,
    kind: receipt.kind,
    executor_id: receipt.executor_id,
    claim_id: receipt.claim_id,
    applied: receipt.applied,
    body_bytes: Buffer.byteLength(receipt.body_text, "utf8"),
    created_at: isoTime(receipt.created_at_ms),
  };
}

/** What `callReceiptsRoutes` uses of the app's services. */
export interface CallReceiptsRoutesServices {
  readonly storage: Storage;
  readonly requireScope: RequireScope;
}

/** Registers the call receipts route. */
export const callReceiptsRoutes: RouteModule<CallReceiptsRoutesServices> = (app, { storage, requireScope }) => {
  app.get(
    "/v1/runs/:run_id/tool-calls/:call_id/receipts",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "listCallReceipts",
        tags: ["runs"],
        summary: "List a call's receipts",
        description:
          "Every receipt stored for the call, in arrival order, without bodies: kind, executor, claim, whether it " +
          "was applied (false for a receipt that arrived after the run ended) and its size. 404 when the run lies " +
          "outside the credential's agent scope or has no such call.",
        params: RunCallParams,
        response: { 200: CallReceipts, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { run_id, call_id } = request.params;
      const run = await storage.runs.get(run_id, agentScopeOf(identityOf(request)));
      if (run === undefined) throw notFoundError("run", run_id);
      const call = await storage.calls.get(run_id, call_id);
      if (call === undefined) throw notFoundError("tool call", call_id);
      const receipts = await storage.receipts.listByCall(call_id);
      return { call_id, receipts: receipts.map(storedReceiptOf) };
    },
  );
};
