/**
 * The tool-call routes of a run (docs/protocol.md): list a run's calls (`runtime:read`), business-task
 * cancel of one call and compensation of a completed write call (`runtime:write`). None of these
 * implies another, nor a run cancel.
 */

import {
  CallCancelRequested,
  CancelCallRequest,
  CompensateRequest,
  PageQuery,
  RunCallParams,
  RunIdParams,
  ToolCall,
  ToolCallList,
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
import type { Storage } from "../storage/storage.js";
import { cancelCall } from "./cancel-call.js";
import { compensateCall } from "./compensate-call.js";
import type { RunProgress } from "./run-progress.js";
import { cancelRequestedOf, toolCallOf } from "./run-wire.js";

const TAGS = ["runs"];

/** What `toolCallRoutes` uses of the app's services. */
export interface ToolCallRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
  readonly runProgress: RunProgress;
}

/** Registers the tool-call routes. */
export const toolCallRoutes: RouteModule<ToolCallRoutesServices> = (
  app,
  { storage, clock, requireScope, runProgress },
) => {
  app.get(
    "/v1/runs/:run_id/tool-calls",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "listToolCalls",
        tags: TAGS,
        summary: "List a run's tool calls",
        description:
          "Every call of the run in creation order, compensation calls included (with `compensates`). Calls the " +
          "server refused (unknown tool, invalid arguments) are listed `failed` with `rejected`; no executor saw them.",
        params: RunIdParams,
        querystring: PageQuery,
        response: { 200: ToolCallList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { run_id } = request.params;
      const run = await storage.runs.get(run_id, agentScopeOf(identityOf(request)));
      if (run === undefined) throw notFoundError("run", run_id);
      return wirePage(await storage.calls.listByRun(run_id, pageRequestOf(request.query)), toolCallOf);
    },
  );

  app.post(
    "/v1/runs/:run_id/tool-calls/:call_id/cancel",
    {
      config: { errorCodes: ["call_already_final", "conflict"] },
      onRequest: requireScope("runtime:write"),
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "cancelToolCall",
        tags: TAGS,
        summary: "Cancel the business task of a call",
        description:
          "A pending call is `cancelled` at once (the model sees a cancelled result). A claimed or accepted call keeps " +
          "its status: the request reaches its executor through heartbeat and pending, and the executor confirms with " +
          "a `cancelled` receipt. Asking again answers the same. 409 `call_already_final` for a call that already " +
          "has a final status. The run itself goes on. The body is `{}` or none.",
        params: RunCallParams,
        body: CancelCallRequest,
        response: { 200: CallCancelRequested, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { run_id, call_id } = request.params;
      const scope = agentScopeOf(identityOf(request));
      const outcome = await cancelCall(storage, runProgress, run_id, call_id, scope, clock.nowMs());
      return cancelRequestedOf(outcome.call);
    },
  );

  app.post(
    "/v1/runs/:run_id/tool-calls/:call_id/compensate",
    {
      config: { errorCodes: ["unknown_reference", "not_compensable"] },
      onRequest: requireScope("runtime:write"),
      schema: {
        operationId: "compensateToolCall",
        tags: TAGS,
        summary: "Compensate a completed write call",
        description:
          "Creates a new pending call of `tool_name` (a tool of the run's toolset version) linked by `compensates`, " +
          "executed through the same claim and receipt protocol, even after the run ended. The original call and " +
          "the run's history never change. 409 `not_compensable` unless the original is a `completed` call of a " +
          "`write` tool; 422 `unknown_reference` at `/tool_name` for a tool the toolset lacks; 422 " +
          "`validation_failed` pointing into `/arguments` when they do not match the tool's input schema.",
        params: RunCallParams,
        body: CompensateRequest,
        response: { 201: ToolCall, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { run_id, call_id } = request.params;
      const scope = agentScopeOf(identityOf(request));
      const args = losslessMember(request.rawBody, "arguments");
      const call = await compensateCall(storage, run_id, call_id, scope, request.body.tool_name, args, clock.nowMs());
      return reply.code(201).send(toolCallOf(call));
    },
  );
};
