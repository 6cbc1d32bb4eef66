/**
 * `GET /v1/runs`: the latest runs across sessions (`runtime:read`), newest first, for the console's
 * runs list, optionally only those of one `status` and/or one `agent_id`. Runs of agents outside the
 * credential's agent scope are left out.
 */

import { RecentRunList, RecentRunsQuery } from "@toolhost/protocol/wire";
import { agentScopeOf } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { Storage } from "../storage/storage.js";
import { runOf } from "./run-wire.js";

/** What `recentRunsRoutes` uses of the app's services. */
export interface RecentRunsRoutesServices {
  readonly storage: Storage;
  readonly requireScope: RequireScope;
}

/** Registers the recent-runs route. */
export const recentRunsRoutes: RouteModule<RecentRunsRoutesServices> = (app, { storage, requireScope }) => {
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
          "Runs of every session whose agent lies in the credential's agent scope, newest first (by creation time). " +
          "`status` keeps the runs in that status, `agent_id` those of that agent (both: runs matching both); " +
          "an unknown status is 422 `validation_failed`, an agent without runs (or outside the key's agent scope) " +
          "lists nothing. The `next_cursor` continues the same filtered list.",
        querystring: RecentRunsQuery,
        response: { 200: RecentRunList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { status, agent_id } = request.query;
      const scope = agentScopeOf(identityOf(request));
      const page = await storage.runs.listRecent(pageRequestOf(request.query), scope, { status, agentId: agent_id });
      return wirePage(page, runOf);
    },
  );
};
