/**
 * `/v1/executors/…` (scope `executors:connect`; `tools:execute` alone does not admit, and this scope
 * never admits a claim or a receipt): connect, heartbeat, pending (long-poll), calls/report and
 * disconnect. Every call after connect names its connection and must come from the key that opened
 * it (403 `executor_key_mismatch`): an older connection answers 409 `connection_superseded`, an
 * offline one 409 `connection_offline`, an executor outside the key's binding scope 404.
 */

import {
  ConnectionRequest,
  ConnectRequest,
  DisconnectAnswer,
  ExecutorConnection,
  ExecutorIdParams,
  HeartbeatAnswer,
  PendingAnswer,
  PendingQuery,
  ReportAnswer,
  ReportRequest,
} from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { ServerMetrics } from "../observability/server-metrics.js";
import type { CompiledServerOptions } from "../options.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { ExecutorRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import type { CallWakeups } from "../wakeups/call-wakeups.js";
import { type CallWakeup, handedOn } from "../wakeups/wakeup.js";
import type { WokenCalls } from "../wakeups/woken-calls.js";
import { connectExecutor } from "./connect-executor.js";
import { disconnect, heartbeat, loadLiveConnection } from "./connection-flows.js";
import { LiveConnections } from "./live-connections.js";
import { claimFromPending, EXECUTOR_BATCH_LIMITS, requireClaimScope } from "./pending-claims.js";
import { CONNECTION_NOT_LIVE, type PolledPending, pollPending } from "./pending-poll.js";
import { reportCalls } from "./report-calls.js";

const TAGS = ["executors"];

/** What `executorRoutes` uses of the app's services (its flows take their part of it). */
export interface ExecutorRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: Pick<CompiledServerOptions, "acceptWindowMs" | "heartbeatIntervalMs" | "leaseTtlMs">;
  readonly requireScope: RequireScope;
  readonly metrics: ServerMetrics;
  readonly wakeups: CallWakeups;
  readonly wokenCalls: WokenCalls;
  readonly runProgress: RunProgress;
}

/** Registers the executor routes. */
export const executorRoutes: RouteModule<ExecutorRoutesServices> = (app, context) => {
  const scope = context.requireScope("executors:connect");
  const liveConnections = new LiveConnections();

  app.post(
    "/v1/executors/connect",
    {
      config: { errorCodes: ["unknown_reference", "executor_key_mismatch", "conflict"] },
      onRequest: scope,
      schema: {
        operationId: "connectExecutor",
        tags: TAGS,
        summary: "Connect an executor",
        description:
          "Gives the stable `executor_id` a new connection for `binding_ids` (each must exist and lie in the key's binding scope: 422 `unknown_reference` otherwise). The answer's `batch` names the batched routes this server offers (`claim_max` for `pending?claim=N`, `receipts_max` for `POST /v1/executors/{executor_id}/receipts`). A reconnect supersedes the older connection: `epoch` grows by one and the old `connection_id` answers 409 `connection_superseded`. Claims stay with the executor ID. The executor belongs to this key from now on: every later request for it (heartbeat, pending, report, disconnect, claims, receipts) must come from this key (403 `executor_key_mismatch`).",
        body: ConnectRequest,
        response: { 200: ExecutorConnection, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      ...(await connectExecutor(context, identityOf(request), request.body)),
      batch: EXECUTOR_BATCH_LIMITS,
    }),
  );

  app.post(
    "/v1/executors/:executor_id/heartbeat",
    {
      config: { errorCodes: ["executor_key_mismatch", "connection_superseded", "connection_offline"] },
      onRequest: scope,
      schema: {
        operationId: "heartbeatExecutor",
        tags: TAGS,
        summary: "Renew an executor's lease",
        description:
          "Renews the lease of the current connection and answers the business cancellations requested for calls the executor holds. A superseded connection answers 409 `connection_superseded`; an offline one (lease lapsed or detached) 409 `connection_offline`: connect again.",
        params: ExecutorIdParams,
        body: ConnectionRequest,
        response: { 200: HeartbeatAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request) => heartbeat(context, identityOf(request), request.params.executor_id, request.body.connection_id),
  );

  app.get(
    "/v1/executors/:executor_id/pending",
    {
      config: { errorCodes: ["executor_key_mismatch", "connection_superseded", "connection_offline"] },
      onRequest: scope,
      schema: {
        operationId: "listPendingCalls",
        tags: TAGS,
        summary: "List candidate calls (long-poll)",
        description:
          "Claimable calls on the connection's bindings, oldest first, paged (`limit`, `cursor`): IDs, tool name, binding and creation time, never arguments or grants. With `wait_ms` (at most 30,000) and nothing claimable, waits until a call appears or the time runs out (then an empty list). Also lists the business cancellations for calls the executor holds. With `claim=N` (1 to 32; the key needs `tools:execute` too, 403 `forbidden` otherwise) up to N of this page's candidates are claimed at once: `claims` holds, per claim, exactly what `POST /v1/runs/{run_id}/tool-calls/{call_id}/claim` answers (same checks, grant and `replayed`); candidates another executor won meanwhile are dropped, and the rest stay in `data` without arguments or grant.",
        params: ExecutorIdParams,
        querystring: PendingQuery,
        response: { 200: PendingAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      const claimMax = request.query.claim;
      if (claimMax !== undefined) requireClaimScope(identity);
      const executorId = request.params.executor_id;
      const connectionId = request.query.connection_id;
      const clientGone = new AbortController();
      const onClose = (): void => clientGone.abort();
      request.raw.once("close", onClose);
      let executor: ExecutorRecord;
      let polled: PolledPending;
      try {
        // A remembered connection is checked by the poll's own statement; else the executor is read first.
        const remembered =
          claimMax === undefined ? liveConnections.get(executorId, connectionId, identity.keyId) : undefined;
        const check = { connection_id: connectionId, key_id: identity.keyId };
        const first =
          remembered === undefined
            ? undefined
            : await pollPending(context, identity, remembered, request.query, clientGone.signal, check);
        if (remembered !== undefined && first !== undefined && first !== CONNECTION_NOT_LIVE) {
          executor = remembered;
          polled = first;
        } else {
          if (remembered !== undefined) liveConnections.forget(executorId, connectionId, identity.keyId);
          executor = await loadLiveConnection(context, identity, executorId, connectionId);
          const again = await pollPending(context, identity, executor, request.query, clientGone.signal);
          if (again === CONNECTION_NOT_LIVE) throw new Error("a poll that checks no connection found it not live");
          polled = again;
          if (claimMax === undefined) liveConnections.remember(executor);
        }
      } finally {
        request.raw.off("close", onClose);
      }
      if (claimMax === undefined) {
        // A claim of another call hands this wake-up on (woken-calls.ts).
        context.wokenCalls.answered(executor.executor_id, polled.woken, performance.now());
        return polled.answer;
      }
      const deps = {
        storage: context.storage,
        clock: context.clock,
        acceptWindowMs: context.options.acceptWindowMs,
        // Claims made here count in the claim latency as the claim route's do.
        onClaimed: (waitedMs: number) => context.metrics.observeClaim(waitedMs),
      };
      // A client that went away would never see its claims (they would only lapse): claim nothing for it.
      const claimable = clientGone.signal.aborted ? 0 : claimMax;
      const handOn = (wakeup: CallWakeup): void => {
        const next = handedOn(wakeup);
        if (next !== undefined) context.wakeups.notify([next]);
      };
      const text = await claimFromPending(deps, identity, executor, connectionId, polled, claimable, handOn);
      const untyped: FastifyReply = reply;
      return untyped.code(200).header("content-type", "application/json; charset=utf-8").send(text);
    },
  );

  app.post(
    "/v1/executors/:executor_id/calls/report",
    {
      config: { errorCodes: ["executor_key_mismatch", "connection_superseded", "connection_offline"] },
      onRequest: scope,
      schema: {
        operationId: "reportExecutorCalls",
        tags: TAGS,
        summary: "Report the calls an executor holds",
        description:
          "The executor lists calls its journal holds as `pending_delivery` or `pending_reconciliation`; per call the answer says what the server has (status, run status, the receipt IDs it holds from this executor) and what to do: `redeliver`, `reconcile`, `nothing` or `run_terminated` (do not execute). Changes nothing.",
        params: ExecutorIdParams,
        body: ReportRequest,
        response: { 200: ReportAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const identity = identityOf(request);
      const executor = await loadLiveConnection(
        context,
        identity,
        request.params.executor_id,
        request.body.connection_id,
      );
      return reportCalls(context, identity, executor, request.body);
    },
  );

  app.post(
    "/v1/executors/:executor_id/disconnect",
    {
      config: { errorCodes: ["executor_key_mismatch", "connection_superseded", "connection_offline"] },
      onRequest: scope,
      schema: {
        operationId: "disconnectExecutor",
        tags: TAGS,
        summary: "Detach an executor",
        description:
          "The connection goes offline. Its claimed-but-not-accepted calls return to pending (listed in `released`); accepted calls stay with the executor ID and are not cancelled. Not a run cancel and not a business cancel.",
        params: ExecutorIdParams,
        body: ConnectionRequest,
        response: { 200: DisconnectAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request) => disconnect(context, identityOf(request), request.params.executor_id, request.body.connection_id),
  );
};
