/**
 * `GET /v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics` (docs/configuration.md): how one agent's
 * versions use one executor binding and whether it can serve their calls. Needs `configuration:read`
 * or `runtime:read`; the agent must lie in the credential's agent scope and the binding in its binding
 * scope (404 otherwise). The answer is `diagnose(loadDiagnosticFacts(…))`.
 */

import { BindingDiagnostics, DiagnosticsParams } from "@toolhost/protocol/wire";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { Storage } from "../storage/storage.js";
import { diagnose } from "./diagnose.js";
import { loadDiagnosticFacts } from "./diagnostic-facts.js";

/** What `diagnosticsRoutes` uses of the app's services. */
export interface DiagnosticsRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
}

/** Registers the binding diagnostics route. */
export const diagnosticsRoutes: RouteModule<DiagnosticsRoutesServices> = (app, { storage, clock, requireScope }) => {
  app.get(
    "/v1/agents/:agent_id/executor-bindings/:binding_id/diagnostics",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read", "runtime:read"),
      schema: {
        operationId: "diagnoseBinding",
        tags: ["diagnostics"],
        summary: "Diagnose an agent's executor binding",
        description:
          "Whether the agent's versions reference the binding and with which tools, its online executors, unsettled calls, last verified execution, and named checks (`binding_exists`, `agent_has_versions`, `binding_referenced`, `executor_online`, `no_stale_pending`, `no_reconciliation_backlog`, `execution_verified`).",
        params: DiagnosticsParams,
        response: { 200: BindingDiagnostics, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { agent_id, binding_id } = request.params;
      return diagnose(await loadDiagnosticFacts(storage, identityOf(request), agent_id, binding_id, clock.nowMs()));
    },
  );
};
