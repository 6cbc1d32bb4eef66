/**
 * `POST /v1/runs/{run_id}/tool-calls/{call_id}/claim` (scope `tools:execute`; `executors:connect`
 * alone is 403). The answer is sent as the compact writer's text, so `arguments` come out exactly as
 * stored (the model's key order, big integers intact).
 */

import { CallPathParams, ClaimAnswer, ClaimRequest } from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { ServerMetrics } from "../observability/server-metrics.js";
import type { CompiledServerOptions } from "../options.js";
import type { Storage } from "../storage/storage.js";
import type { CallWakeups } from "../wakeups/call-wakeups.js";
import { handedOn } from "../wakeups/wakeup.js";
import type { WokenCalls } from "../wakeups/woken-calls.js";
import { claimCall } from "./claim-call.js";

/** What `claimRoutes` uses of the app's services. */
export interface ClaimRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: Pick<CompiledServerOptions, "acceptWindowMs">;
  readonly requireScope: RequireScope;
  readonly metrics: ServerMetrics;
  readonly wakeups: CallWakeups;
  readonly wokenCalls: WokenCalls;
}

/** Registers the claim route. */
export const claimRoutes: RouteModule<ClaimRoutesServices> = (
  app,
  { storage, clock, options, requireScope, metrics, wakeups, wokenCalls },
) => {
  app.post(
    "/v1/runs/:run_id/tool-calls/:call_id/claim",
    {
      config: {
        errorCodes: [
          "executor_key_mismatch",
          "already_claimed",
          "run_terminated",
          "connection_superseded",
          "connection_offline",
          "conflict",
        ],
      },
      onRequest: requireScope("tools:execute"),
      schema: {
        operationId: "claimToolCall",
        tags: ["calls"],
        summary: "Claim a pending tool call",
        description:
          "The first claim wins; another executor gets 409 `already_claimed`, the same executor claiming again " +
          "gets the same claim and grant with `replayed: true`. Needs `tools:execute` and the key that opened the " +
          "executor's current connection (403 `executor_key_mismatch` otherwise), the executor's current " +
          "online connection (409 `connection_superseded` / `connection_offline`) serving the call's binding, and " +
          "the run's agent and the call's binding in the key's scopes (404 otherwise). A call of an ended run is " +
          "409 `run_terminated` (compensation calls excepted). Send `accepted` before `accept_deadline`, or the " +
          "claim lapses and the call returns to pending.",
        params: CallPathParams,
        body: ClaimRequest,
        response: { 200: ClaimAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { run_id, call_id } = request.params;
      let won = false;
      const deps = {
        storage,
        clock,
        acceptWindowMs: options.acceptWindowMs,
        onClaimed: (waitedMs: number) => {
          won = true;
          metrics.observeClaim(waitedMs);
        },
      };
      const text = await claimCall(deps, identityOf(request), run_id, call_id, request.body);
      if (won) {
        // Winning another call than the one this executor was woken for passes that wake-up on.
        const unused = wokenCalls.claimed(request.body.executor_id, call_id, performance.now());
        const next = unused === undefined ? undefined : handedOn(unused);
        if (next !== undefined) wakeups.notify([next]);
      }
      // The typed reply expects the answer object; its exact text (the shape the schema documents) goes instead.
      const untyped: FastifyReply = reply;
      return untyped.code(200).header("content-type", "application/json; charset=utf-8").send(text);
    },
  );
};
