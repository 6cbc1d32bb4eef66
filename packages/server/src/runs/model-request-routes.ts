/**
 * `GET /v1/runs/{run_id}/model-requests` (`runtime:read`): every model request the run made, in
 * creation order, with its size, the estimated and the real input tokens — so the estimator's error
 * and the compactions can be audited.
 */

import { ModelRequestList, PageQuery, RunIdParams } from "@toolhost/protocol/wire";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { Storage } from "../storage/storage.js";
import { modelRequestOf } from "./model-request-wire.js";

/** What `modelRequestRoutes` uses of the app's services. */
export interface ModelRequestRoutesServices {
  readonly storage: Storage;
  readonly requireScope: RequireScope;
}

/** Registers the model-requests route. */
export const modelRequestRoutes: RouteModule<ModelRequestRoutesServices> = (app, { storage, requireScope }) => {
  app.get(
    "/v1/runs/:run_id/model-requests",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "listModelRequests",
        tags: ["runs"],
        summary: "List a run's model requests",
        description:
          "Each request the run made to its model (`purpose` `turn`, or `summary` for a compaction), in creation " +
          "order: `request_bytes`, the calibrated `estimated_input_tokens` made before sending, the provider's " +
          "`actual_input_tokens` and `output_tokens` (null when it reported none), whether the history was " +
          "`compacted` just before, and `latency_ms` (retries included).",
        params: RunIdParams,
        querystring: PageQuery,
        response: { 200: ModelRequestList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { run_id } = request.params;
      const run = await storage.runs.get(run_id, agentScopeOf(identityOf(request)));
      if (run === undefined) throw notFoundError("run", run_id);
      return wirePage(await storage.modelRequests.listByRun(run_id, pageRequestOf(request.query)), modelRequestOf);
    },
  );
};
