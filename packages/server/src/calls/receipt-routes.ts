/**
 * `POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts` (scope `tools:execute`). The schema checks
 * the envelope; the receipt itself is read again from the exact request text (`request.rawBody`), which
 * is stored byte for byte. Every accepted receipt answers 200: first delivery, replay, `confirmed:
 * false`, `applied: false`.
 */

import { CallPathParams, ReceiptAnswer, ReceiptRequest } from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { CompiledServerOptions } from "../options.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { Storage } from "../storage/storage.js";
import { progressLimitsOf, recordReceipt } from "./record-receipt.js";

/** What `receiptRoutes` uses of the app's services. */
export interface ReceiptRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
  readonly runProgress: RunProgress;
  readonly options: Pick<CompiledServerOptions, "maxProgressBytes" | "maxProgressPerCall">;
}

/** Registers the receipt route. */
export const receiptRoutes: RouteModule<ReceiptRoutesServices> = (
  app,
  { storage, clock, requireScope, runProgress, options },
) => {
  app.post(
    "/v1/runs/:run_id/tool-calls/:call_id/receipts",
    {
      config: {
        errorCodes: [
          "invalid_result",
          "executor_key_mismatch",
          "invalid_grant",
          "receipt_conflict",
          "accept_required",
          "call_already_final",
          "progress_limit_exceeded",
          "progress_too_large",
          "conflict",
        ],
      },
      onRequest: requireScope("tools:execute"),
      schema: {
        operationId: "sendReceipt",
        tags: ["calls"],
        summary: "Report on a claimed tool call",
        description:
          "Kinds: `accepted` (answered `confirmed`: start side effects only on true), `progress`, `completed` " +
          "(with `result`), `failed` (with `error`), `cancelled`, `reconciliation_required`. Idempotent per " +
          "`receipt_id`: the same body again answers the first answer with `replayed: true`, the current `call_status` " +
          "and `run_status`, and for `accepted` a live `confirmed` (true only while this claim holds the call accepted, " +
          "before its deadline, on an active run); another body is " +
          "409 `receipt_conflict` (receipt IDs count per claim). Only the key that opened the executor's current " +
          "connection may send it (403 `executor_key_mismatch`). A wrong, foreign or expired grant is 403 " +
          "`invalid_grant`; an outcome before " +
          "`accepted` is 409 `accept_required`; a second final receipt is 409 `call_already_final`. A `progress` " +
          "value larger than the server's `maxProgressBytes` (compact JSON) is 413 `progress_too_large`, one more " +
          "than its `maxProgressPerCall` per call 409 `progress_limit_exceeded` (nothing stored). A receipt " +
          "for an ended run is stored and answered `applied: false`; it never changes the run or its history. " +
          "The body is stored exactly as sent.",
        params: CallPathParams,
        body: ReceiptRequest,
        response: { 200: ReceiptAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { run_id, call_id } = request.params;
      const deps = { storage, clock, runProgress, progressLimits: progressLimitsOf(options) };
      const text = await recordReceipt(deps, identityOf(request), run_id, call_id, request.rawBody ?? "");
      const untyped: FastifyReply = reply;
      return untyped.code(200).header("content-type", "application/json; charset=utf-8").send(text);
    },
  );
};
