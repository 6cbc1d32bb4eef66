/**
 * The run routes (docs/runs.md): create a run of a session (`runtime:write`), read runs
 * (`runtime:read`), and run cancel (`runtime:write`). Runs lie in the agent scope of their agent;
 * outside it they answer 404 like missing ones.
 */

import {
  CancelledRun,
  CancelRunRequest,
  CreateRunRequest,
  PageQuery,
  Run,
  RunIdParams,
  RunList,
  SessionIdParams,
} from "@toolhost/protocol/wire";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { losslessMember } from "../http/lossless-body.js";
import { absentBodyIsEmpty } from "../http/optional-body.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { CompiledServerOptions } from "../options.js";
import type { Storage } from "../storage/storage.js";
import { cancelRun } from "./cancel-run.js";
import { createRun } from "./create-run.js";
import { runLimitsOf } from "./run-limits.js";
import { runOf } from "./run-wire.js";

const TAGS = ["runs"];

/** What `runRoutes` uses of the app's services. */
export interface RunRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
  readonly options: Pick<CompiledServerOptions, "maxToolCalls" | "maxTurns" | "runTimeoutMs">;
}

/** Registers the run routes. */
export const runRoutes: RouteModule<RunRoutesServices> = (app, { storage, clock, requireScope, options }) => {
  app.post(
    "/v1/sessions/:session_id/runs",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:write"),
      schema: {
        operationId: "createRun",
        tags: TAGS,
        summary: "Start a run",
        description:
          "Stores the run with its `input` (kept byte for byte) and starts its first model turn at once. The scripted " +
          "model answers in the request, so the answer shows where that left it (`waiting_for_tools` when it emitted " +
          "calls, `completed` after a final message, `failed` when the model could not go on); an `openai` or " +
          "`anthropic` model is asked in the background (`running`; follow `GET /v1/runs/{run_id}/events`). 404 when " +
          "the session lies outside the credential's agent scope.",
        params: SessionIdParams,
        body: CreateRunRequest,
        response: { 201: Run, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { session_id } = request.params;
      const session = await storage.sessions.get(session_id, agentScopeOf(identityOf(request)));
      if (session === undefined) throw notFoundError("session", session_id);
      const input = losslessMember(request.rawBody, "input");
      const version = await storage.agents.getVersion(session.agent_version, "*");
      if (version === undefined) throw new Error(`session ${session_id} pins a missing agent version`);
      const limits = runLimitsOf(version, options);
      const created = await createRun(storage, session, input, limits, clock.nowMs());
      return reply.code(201).send(runOf(created.run));
    },
  );

  app.get(
    "/v1/sessions/:session_id/runs",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "listSessionRuns",
        tags: TAGS,
        summary: "List a session's runs",
        description: "Runs in creation order. 404 when the session lies outside the credential's agent scope.",
        params: SessionIdParams,
        querystring: PageQuery,
        response: { 200: RunList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { session_id } = request.params;
      const session = await storage.sessions.get(session_id, agentScopeOf(identityOf(request)));
      if (session === undefined) throw notFoundError("session", session_id);
      return wirePage(await storage.runs.listBySession(session_id, pageRequestOf(request.query)), runOf);
    },
  );

  app.get(
    "/v1/runs/:run_id",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "getRun",
        tags: TAGS,
        summary: "Read a run",
        description: "Its status, and its `output` once completed or its `error` once failed.",
        params: RunIdParams,
        response: { 200: Run, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { run_id } = request.params;
      const run = await storage.runs.get(run_id, agentScopeOf(identityOf(request)));
      if (run === undefined) throw notFoundError("run", run_id);
      return runOf(run);
    },
  );

  app.post(
    "/v1/runs/:run_id/cancel",
    {
      config: { errorCodes: ["run_terminated"] },
      onRequest: requireScope("runtime:write"),
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "cancelRun",
        tags: TAGS,
        summary: "Cancel a run",
        description:
          "The run becomes `cancelled`; its calls nobody confirmed yet (`pending`, `claimed`) are cancelled with it. " +
          "Accepted calls are not touched and no business cancel is sent (that is " +
          "`POST /v1/runs/{run_id}/tool-calls/{call_id}/cancel`); their later receipts are stored and answered " +
          "`applied: false`. 409 `run_terminated` when the run has already ended. The body is `{}` or none.",
        params: RunIdParams,
        body: CancelRunRequest,
        response: { 200: CancelledRun, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { run_id } = request.params;
      await cancelRun(storage, run_id, agentScopeOf(identityOf(request)), clock.nowMs());
      return { run_id, status: "cancelled" as const };
    },
  );
};
