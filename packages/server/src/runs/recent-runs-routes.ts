/**
 * `GET /v1/runs`: the latest runs across sessions (`runtime:read`), newest first, for the console's
 * runs list. Runs of agents outside the credential's agent scope are left out.
 */

import { PageQuery, RecentRunList } from "@toolhost/protocol/wire";
import { agentScopeOf } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import { runOf } from "./run-wire.js";

/** Registers the recent-runs route. */
export const recentRunsRoutes: RouteModule = (app, { storage, requireScope }) => {
  app.get(
    "/v1/runs",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "listRuns",
        tags: ["runs"],
        summary: "List recent runs",
        description:
          "Runs of every session whose agent lies in the credential's agent scope, newest first (by creation time).",
        querystring: PageQuery,
        response: { 200: RecentRunList, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      wirePage(await storage.runs.listRecent(pageRequestOf(request.query), agentScopeOf(identityOf(request))), runOf),
  );
};
