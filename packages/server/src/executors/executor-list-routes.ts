/**
 * `GET /v1/executors`: the executors a credential may see, for the console's executors page and for
 * operators. Needs `configuration:read` or `runtime:read`; an executor whose current connection serves a
 * binding outside the credential's binding scope is left out, as it answers 404 everywhere else.
 */

import {
  type ExecutorList,
  ExecutorList as ExecutorListSchema,
  type ExecutorSummary,
  PageQuery,
} from "@toolhost/protocol/wire";
import { bindingScopeOf } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime, isoTimeOrNull } from "../http/wire-time.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";

/** The wire form of a stored executor at `nowMs` (online only while its lease runs). */
export function executorSummaryOf(executor: ExecutorRecord, nowMs: number): ExecutorSummary {
  return {
    executor_id: executor.executor_id,
    connection_id: executor.connection_id,
    epoch: executor.epoch,
    binding_ids: executor.binding_ids,
    online: executor.online && nowMs < executor.lease_expires_ms,
    connected_at: isoTime(executor.connected_at_ms),
    last_heartbeat_at: isoTime(executor.last_heartbeat_ms),
    lease_expires_at: isoTime(executor.lease_expires_ms),
    disconnected_at: isoTimeOrNull(executor.disconnected_at_ms),
    ...(executor.tool_names === null ? {} : { tool_names: executor.tool_names }),
  };
}

/** What `executorListRoutes` uses of the app's services. */
export interface ExecutorListRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
}

/** Registers the executor list route. */
export const executorListRoutes: RouteModule<ExecutorListRoutesServices> = (app, { storage, clock, requireScope }) => {
  app.get(
    "/v1/executors",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read", "runtime:read"),
      schema: {
        operationId: "listExecutors",
        tags: ["executors"],
        summary: "List executors",
        description:
          "Every executor whose current connection serves only bindings in the credential's binding scope, online " +
          "or not, ordered by executor ID: its connection, epoch, bindings, lease and the tools it declared.",
        querystring: PageQuery,
        response: { 200: ExecutorListSchema, ...ERROR_RESPONSES },
      },
    },
    async (request): Promise<ExecutorList> => {
      const page = await storage.executors.list(pageRequestOf(request.query), bindingScopeOf(identityOf(request)));
      const nowMs = clock.nowMs();
      return wirePage(page, (executor) => executorSummaryOf(executor, nowMs));
    },
  );
};
