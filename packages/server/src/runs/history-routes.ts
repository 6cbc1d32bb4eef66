/**
 * `GET /v1/runs/{run_id}/history` (`runtime:read`): the run's committed execution history, oldest
 * first. Items are sent exactly as stored (pre-serialised text), so a tool result's context preview is
 * byte for byte what the model sees and what the dry-run previews for the same result and budget.
 */

import { HistoryPage, PageQuery, RunIdParams } from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { Storage } from "../storage/storage.js";
import { historyPageText } from "./run-wire.js";

/** What `historyRoutes` uses of the app's services. */
export interface HistoryRoutesServices {
  readonly storage: Storage;
  readonly requireScope: RequireScope;
}

/** Registers the history route. */
export const historyRoutes: RouteModule<HistoryRoutesServices> = (app, { storage, requireScope }) => {
  app.get(
    "/v1/runs/:run_id/history",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "getRunHistory",
        tags: ["runs"],
        summary: "Read a run's history",
        description:
          "Items `input`, `tool_calls`, `tool_result` and `message`, oldest first, each exactly as stored when it " +
          "was committed; items are never rewritten (a reconciled outcome is a new `tool_result` item).",
        params: RunIdParams,
        querystring: PageQuery,
        response: { 200: HistoryPage, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { run_id } = request.params;
      const run = await storage.runs.get(run_id, agentScopeOf(identityOf(request)));
      if (run === undefined) throw notFoundError("run", run_id);
      const page = await storage.history.list(run_id, pageRequestOf(request.query));
      // The typed reply expects the page object; its stored text (the shape the schema documents) goes instead.
      const untyped: FastifyReply = reply;
      return untyped.code(200).header("content-type", "application/json; charset=utf-8").send(historyPageText(page));
    },
  );
};
