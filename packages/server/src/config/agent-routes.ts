/**
 * `/v1/agents`: create agents, publish their immutable versions and read them (docs/configuration.md). Reads
 * need `configuration:read`, writes `configuration:write`. Agents outside the credential's agent scope
 * answer 404 like missing ones; a key whose agent scope is a list cannot create agents (403, see
 * `creation-scope.ts`) but may publish versions of the agents it sees.
 *
 * An agent version pins a toolset version that must exist and be visible to the credential (its
 * binding scope holds every binding of the toolset; else 422 `unknown_reference` at `/toolset_id`,
 * as for a missing one, or at `/toolset_version`), the model settings (validated by the protocol's `validateModelSettings`
 * before the body schema, so an unknown provider is reported at `/model/provider`; an HTTP provider's
 * `connection` must be one of the operator's model connections within the key's reach, see
 * `model-connection-reach.ts`), the instructions, `max_context_tokens` and the run limits (at most the
 * server's, `runs/run-limits.ts`). There is no route that changes or deletes a version.
 */

import {
  checkOutputWithinWindow,
  compact,
  MAX_CONTEXT_TOKENS,
  ProtocolError,
  validateModelSettings,
} from "@toolhost/protocol";
import {
  Agent,
  AgentIdParams,
  AgentList,
  AgentVersion,
  AgentVersionList,
  AgentVersionParams,
  CreateAgentRequest,
  CreateAgentVersionRequest,
  PageQuery,
} from "@toolhost/protocol/wire";
import type { FastifyReply } from "fastify";
import { agentScopeOf, bindingScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { losslessMember } from "../http/lossless-body.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime } from "../http/wire-time.js";
import { newId } from "../ids.js";
import type { CompiledServerOptions } from "../options.js";
import { versionRunLimits } from "../runs/run-limits.js";
import type { AgentRecord, AgentVersionRecord, IdScope } from "../storage/records.js";
import type { Storage, ToolsetStore } from "../storage/storage.js";
import { assertMayCreateAgents } from "./creation-scope.js";
import { assertConnectionInReach } from "./model-connection-reach.js";
import { validateMemberFirst } from "./validate-member-first.js";

/** Prefix of server-made agent IDs. */
export const AGENT_ID_PREFIX = "agt";
/** Prefix of the opaque agent version IDs. */
export const AGENT_VERSION_PREFIX = "agv";

/** The wire form of a stored agent. */
export function agentOf(agent: AgentRecord): Agent {
  return { agent_id: agent.agent_id, name: agent.name, created_at: isoTime(agent.created_at_ms) };
}

/**
 * The wire text of a stored agent version. `model` is spliced in as stored (compact, lossless), so the
 * answer shows scripted arguments exactly as they will be played — big integers and key order
 * included — which a parse and re-serialisation would not.
 */
export function agentVersionText(version: AgentVersionRecord): string {
  const head = JSON.stringify({
    agent_version: version.agent_version,
    agent_id: version.agent_id,
    toolset_id: version.toolset_id,
    toolset_version: version.toolset_version,
  });
  const tail = JSON.stringify({
    instructions: version.instructions,
    max_context_tokens: version.max_context_tokens,
    max_turns: version.max_turns,
    max_tool_calls: version.max_tool_calls,
    run_timeout_ms: version.run_timeout_ms,
    created_at: isoTime(version.created_at_ms),
  });
  return `${head.slice(0, -1)},"model":${version.model_json},${tail.slice(1)}`;
}

/** Sends pre-serialised JSON `text` (the shape the route's schema documents) with `status`. */
function sendJsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header("content-type", "application/json; charset=utf-8").send(text);
}

/** Throws 422 `unknown_reference` unless toolset `toolsetId` lies in binding scope `scope` and has version `version`. */
async function assertToolsetVersionExists(
  toolsets: ToolsetStore,
  toolsetId: string,
  version: number,
  scope: IdScope,
): Promise<void> {
  // Out of scope answers exactly like missing: pinning another tenant's toolset would let this
  // key's runs call tools on bindings it does not reach.
  const toolset = await toolsets.get(toolsetId, scope);
  if (toolset === undefined) {
    throw new ProtocolError("unknown_reference", `toolset ${JSON.stringify(toolsetId)} does not exist`, "/toolset_id", {
      kind: "toolset",
      id: toolsetId,
    });
  }
  if ((await toolsets.getVersion(toolsetId, version)) !== undefined) return;
  throw new ProtocolError(
    "unknown_reference",
    `toolset ${JSON.stringify(toolsetId)} has no version ${version} (its latest is ${toolset.latest_version})`,
    "/toolset_version",
    { kind: "toolset_version", id: toolsetId, version, latest_version: toolset.latest_version },
  );
}

/** `validateModelSettings` on `model`, before the body schema. */
const modelFirst = validateMemberFirst("model", validateModelSettings);

const TAGS = ["agents"];

/** What `agentRoutes` uses of the app's services. */
export interface AgentRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: Pick<CompiledServerOptions, "maxToolCalls" | "maxTurns" | "modelConnections" | "runTimeoutMs">;
  readonly requireScope: RequireScope;
}

/** Registers the agent routes. */
export const agentRoutes: RouteModule<AgentRoutesServices> = (app, { storage, clock, options, requireScope }) => {
  app.post(
    "/v1/agents",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:write"),
      schema: {
        operationId: "createAgent",
        tags: TAGS,
        summary: "Create an agent",
        description:
          'Answers a new `agt_…` agent; publish versions to make it runnable. Needs an agent scope of `"*"` (a listed scope could not see the new agent: 403).',
        body: CreateAgentRequest,
        response: { 201: Agent, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      assertMayCreateAgents(identityOf(request));
      const now = clock.nowMs();
      const agent: AgentRecord = { agent_id: newId(AGENT_ID_PREFIX, now), name: request.body.name, created_at_ms: now };
      await storage.agents.insert(agent);
      return reply.code(201).send(agentOf(agent));
    },
  );

  app.post(
    "/v1/agents/:agent_id/versions",
    {
      config: { errorCodes: ["unknown_reference", "conflict"] },
      onRequest: requireScope("configuration:write"),
      preValidation: modelFirst.preValidation,
      schema: {
        operationId: "publishAgentVersion",
        tags: TAGS,
        summary: "Publish an agent version",
        description: `Pins a toolset version, the model settings, instructions (default \`""\`), \`max_context_tokens\` (default ${MAX_CONTEXT_TOKENS.default}) and the run limits \`max_turns\`, \`max_tool_calls\`, \`run_timeout_ms\` (each at most the server's own, 422 at its pointer above; unset: the server's). Sessions pin the answered \`agent_version\`. The toolset must be visible to the credential (422 \`unknown_reference\` otherwise, as when it does not exist); an \`openai\` or \`anthropic\` model must name one of the server's model connections within the credential's \`connections\` (422 \`unknown_reference\` at \`/model/connection\` otherwise, as when it does not exist).`,
        params: AgentIdParams,
        body: CreateAgentVersionRequest,
        response: { 201: AgentVersion, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { agent_id } = request.params;
      const { toolset_id, toolset_version } = request.body;
      const identity = identityOf(request);
      if ((await storage.agents.get(agent_id, agentScopeOf(identity))) === undefined) {
        throw notFoundError("agent", agent_id);
      }
      await assertToolsetVersionExists(storage.toolsets, toolset_id, toolset_version, bindingScopeOf(identity));
      const maxContextTokens = request.body.max_context_tokens ?? MAX_CONTEXT_TOKENS.default;
      const model = validateModelSettings(request.body.model);
      assertConnectionInReach(model, options.modelConnections, identity.connections);
      checkOutputWithinWindow(model, maxContextTokens);
      const limits = versionRunLimits(request.body, options);
      const now = clock.nowMs();
      const version = await storage.agents.appendVersion({
        agent_version: newId(AGENT_VERSION_PREFIX, now),
        agent_id,
        toolset_id,
        toolset_version,
        // Stored losslessly (key order, big integers): scripted arguments are replayed from this text.
        model_json: compact(losslessMember(request.rawBody, "model")),
        instructions: request.body.instructions ?? "",
        max_context_tokens: maxContextTokens,
        ...limits,
        created_at_ms: now,
      });
      if (version === undefined) throw notFoundError("agent", agent_id);
      return sendJsonText(reply, 201, agentVersionText(version));
    },
  );

  app.get(
    "/v1/agents",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "listAgents",
        tags: TAGS,
        summary: "List agents",
        description: "Agents in the credential's agent scope, in creation order.",
        querystring: PageQuery,
        response: { 200: AgentList, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      wirePage(await storage.agents.list(pageRequestOf(request.query), agentScopeOf(identityOf(request))), agentOf),
  );

  app.get(
    "/v1/agents/:agent_id",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "getAgent",
        tags: TAGS,
        summary: "Read an agent",
        description: "404 when it does not exist or lies outside the credential's agent scope.",
        params: AgentIdParams,
        response: { 200: Agent, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { agent_id } = request.params;
      const agent = await storage.agents.get(agent_id, agentScopeOf(identityOf(request)));
      if (agent === undefined) throw notFoundError("agent", agent_id);
      return agentOf(agent);
    },
  );

  app.get(
    "/v1/agents/:agent_id/versions",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "listAgentVersions",
        tags: TAGS,
        summary: "List an agent's versions",
        description: "Versions oldest first.",
        params: AgentIdParams,
        querystring: PageQuery,
        response: { 200: AgentVersionList, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { agent_id } = request.params;
      if ((await storage.agents.get(agent_id, agentScopeOf(identityOf(request)))) === undefined) {
        throw notFoundError("agent", agent_id);
      }
      const page = await storage.agents.listVersions(agent_id, pageRequestOf(request.query));
      const cursor = JSON.stringify(page.next_cursor);
      return sendJsonText(
        reply,
        200,
        `{"data":[${page.items.map(agentVersionText).join(",")}],"next_cursor":${cursor}}`,
      );
    },
  );

  app.get(
    "/v1/agents/:agent_id/versions/:agent_version",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "getAgentVersion",
        tags: TAGS,
        summary: "Read an agent version",
        description: "One immutable version of this agent: the same answer every time.",
        params: AgentVersionParams,
        response: { 200: AgentVersion, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { agent_id, agent_version } = request.params;
      const version = await storage.agents.getVersion(agent_version, agentScopeOf(identityOf(request)));
      if (version === undefined || version.agent_id !== agent_id) throw notFoundError("agent version", agent_version);
      return sendJsonText(reply, 200, agentVersionText(version));
    },
  );
};
