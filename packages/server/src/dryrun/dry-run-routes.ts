/**
 * `POST /v1/tools/dry-run` (docs/dry-run.md): load the tool, decide (`dryRun`), answer. It reads only: no run,
 * no model call, no executor, nothing stored. The answer is written with the protocol's compact writer
 * and sent as text, so the preview is byte-identical to what a run's history would store.
 */

import { DryRunAnswer, DryRunRequest } from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { Storage } from "../storage/storage.js";
import { dryRunInput } from "./body-sections.js";
import { dryRun, dryRunAnswerText } from "./dry-run.js";
import { loadDryRunTool } from "./dry-run-tool.js";

/** What `dryRunRoutes` uses of the app's services. */
export interface DryRunRoutesServices {
  readonly storage: Storage;
  readonly requireScope: RequireScope;
}

/** Registers the dry-run route. */
export const dryRunRoutes: RouteModule<DryRunRoutesServices> = (app, { storage, requireScope }) => {
  app.post(
    "/v1/tools/dry-run",
    {
      onRequest: requireScope("runtime:read", "configuration:read", "tools:execute"),
      // Nothing is stored: a lone surrogate in the arguments or a mock receipt is reported in the answer.
      config: { keepLoneSurrogates: true, errorCodes: ["not_found"] },
      schema: {
        operationId: "dryRunToolCall",
        tags: ["dry-run"],
        summary: "Check a tool call and preview what the model sees",
        description:
          "Validates `arguments` against the tool's input schema and each mock receipt, and answers the " +
          "`context_preview` of the first valid `completed` mock receipt (null when there is none), byte for byte " +
          "as a run's history would store it. Invalid arguments or receipts are reported in the 200 answer. " +
          "Creates no run, calls no model, reaches no executor: `execution_verified` is always false. Needs " +
          "`runtime:read`, `configuration:read` or `tools:execute`, the agent in the key's agent scope and the tool's " +
          "binding in its binding scope (404 otherwise, like a missing one).",
        body: DryRunRequest,
        response: { 200: DryRunAnswer, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const tool = await loadDryRunTool(
        storage,
        identityOf(request),
        request.body.agent_version,
        request.body.tool_name,
      );
      const outcome = dryRun(tool, dryRunInput(request.rawBody ?? "{}"));
      // The typed reply expects the answer object; its exact text (the shape the schema documents) goes instead.
      const untyped: FastifyReply = reply;
      return untyped
        .code(200)
        .header("content-type", "application/json; charset=utf-8")
        .send(dryRunAnswerText(outcome));
    },
  );
};
