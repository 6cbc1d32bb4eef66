/**
 * `POST /v1/executors/{executor_id}/receipts` (scope `tools:execute`, as the per-call receipt route):
 * many receipts of one executor in one request, one answer per receipt in order (see
 * `receipt-batch.ts`). The count is bounded by the schema and the size by the server's body limit.
 */

import { ExecutorIdParams, RECEIPTS_BATCH_MAX, ReceiptBatchAnswer, ReceiptBatchRequest } from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { ServerMetrics } from "../observability/server-metrics.js";
import type { CompiledServerOptions } from "../options.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { Storage } from "../storage/storage.js";
import { type BatchedReceiptAnswer, recordReceiptBatch } from "./receipt-batch.js";
import { progressLimitsOf } from "./record-receipt.js";

/** What `receiptBatchRoutes` uses of the app's services. */
export interface ReceiptBatchRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: Pick<CompiledServerOptions, "bodyLimitBytes" | "maxProgressBytes" | "maxProgressPerCall">;
  readonly requireScope: RequireScope;
  readonly runProgress: RunProgress;
  readonly metrics: ServerMetrics;
}

/** Registers the batch receipt route. */
export const receiptBatchRoutes: RouteModule<ReceiptBatchRoutesServices> = (
  app,
  { storage, clock, options, requireScope, runProgress, metrics },
) => {
  app.post(
    "/v1/executors/:executor_id/receipts",
    {
      // Per-receipt refusals travel inside the 200 answer; these are the whole request's.
      config: { errorCodes: ["executor_key_mismatch"] },
      onRequest: requireScope("tools:execute"),
      schema: {
        operationId: "postExecutorReceipts",
        tags: ["executors"],
        summary: "Report on many claimed tool calls",
        description:
          `Up to ${RECEIPTS_BATCH_MAX} receipts of this executor's calls (within the server's body limit), each ` +
          "recorded in its own transaction (one call's receipts in request order). The answer lists, in order, what " +
          "`POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts` answers for each receipt — `status` and `body`, " +
          "errors included (their pointers are relative to the receipt) — with the same idempotency per " +
          "`receipt_id` (`replayed: true`, 409 `receipt_conflict`) across both routes. The executor must belong to " +
          "the key (404, 403 `executor_key_mismatch` for the whole request) and every receipt must name it " +
          "(422 `validation_failed` for that receipt). A body that fails the schema refuses the whole batch.",
        params: ExecutorIdParams,
        body: ReceiptBatchRequest,
        response: { 200: ReceiptBatchAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const deps = {
        storage,
        clock,
        runProgress,
        progressLimits: progressLimitsOf(options),
        errors: { bodyLimitBytes: options.bodyLimitBytes },
        log: request.log,
        requestId: request.id,
        // Each receipt counts as on the per-call route; a 409 inside the 200 counts as a conflict too.
        onAnswered: ({ kind, status, replayed, code }: BatchedReceiptAnswer) => {
          metrics.countReceipt(kind, status, replayed, code);
          if (status === 409 && code !== undefined) metrics.conflicts.inc({ code });
        },
      };
      const text = await recordReceiptBatch(
        deps,
        identityOf(request),
        request.params.executor_id,
        request.body,
        request.rawBody ?? "",
      );
      const untyped: FastifyReply = reply;
      return untyped.code(200).header("content-type", "application/json; charset=utf-8").send(text);
    },
  );
};
