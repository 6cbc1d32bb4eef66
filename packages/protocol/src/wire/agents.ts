/**
 * Wire schemas of the agent routes (`/v1/agents`, docs/configuration.md): agents and their immutable versions.
 * An agent version pins one toolset version, the model settings, the instructions and the context
 * window; its ID (`agv_…`) is opaque. Agents lie in the credential's agent scope.
 */

import { type Static, Type } from "typebox";
import { MAX_CONTEXT_TOKENS } from "../config/context-window.js";
import { DisplayName } from "./bindings.js";
import { Id, Nullable, Page, StoredText, Timestamp, WireObject } from "./common.js";
import { ModelSettings, StoredModelSettings } from "./model-settings.js";
import { VersionNumber } from "./toolsets.js";

/** Longest `instructions`, in characters. */
export const INSTRUCTIONS_MAX_LENGTH = 200_000;

/** The most an operator may set each run limit to (the agent version's fields take at most the server's value). */
export const RUN_LIMIT_MAXIMA = { max_turns: 10_000, max_tool_calls: 100_000, run_timeout_ms: 2_592_000_000 } as const;

/** The shortest run timeout (server option or agent version field). */
export const RUN_TIMEOUT_MS_MIN = 100;

/** The three run limits an agent version may lower (docs/runs.md#limits). */
export type RunLimitField = keyof typeof RUN_LIMIT_MAXIMA;

const RUN_LIMIT_TEXT: Readonly<Record<RunLimitField, string>> = {
  max_turns: "Most model turns a run of this version makes; beyond, it fails `run_limit_exceeded`.",
  max_tool_calls:
    "Most tool calls a run's model may ask for (refused ones included); beyond, it fails `run_limit_exceeded`.",
  run_timeout_ms: "Longest a run may last, from its creation; then it is `expired`.",
};

/** The schema of one run limit field of a new version (at most the server's value; checked by the route). */
function runLimit(field: RunLimitField) {
  const minimum = field === "run_timeout_ms" ? RUN_TIMEOUT_MS_MIN : 1;
  return Type.Optional(
    Type.Integer({
      description: `${RUN_LIMIT_TEXT[field]} At most the server's own limit (its default too).`,
      minimum,
      maximum: RUN_LIMIT_MAXIMA[field],
    }),
  );
}

/** The answered form of one run limit field. */
function storedRunLimit(field: RunLimitField) {
  return Nullable(Type.Integer({ minimum: 1 }), `${RUN_LIMIT_TEXT[field]} Null: the server's limit applies.`);
}

const AGENT_ID = Id("The agent's ID.");
const AGENT_VERSION = Id("The agent version's opaque ID (`agv_…`).");
const INSTRUCTIONS = `The system instructions for the model (up to ${INSTRUCTIONS_MAX_LENGTH} characters).`;
const { min, max } = MAX_CONTEXT_TOKENS;
const CONTEXT_TOKENS = `The model's input window in tokens: every model request is checked against it. ${min}–${max}.`;

/** `POST /v1/agents`: a new agent (its versions are published separately). */
export const CreateAgentRequest = WireObject("A new agent.", { name: DisplayName("A label for people; not unique.") });

/** `POST /v1/agents` body. */
export type CreateAgentRequest = Static<typeof CreateAgentRequest>;

/** An agent. */
export const Agent = WireObject("An agent; what it runs is pinned by its versions.", {
  agent_id: AGENT_ID,
  name: DisplayName("A label for people."),
  created_at: Timestamp("When the agent was created."),
});

/** An agent. */
export type Agent = Static<typeof Agent>;

/** `GET /v1/agents` answer: agents in the credential's agent scope. */
export const AgentList = Page("Agents in creation order.", Agent);

/** `GET /v1/agents` answer. */
export type AgentList = Static<typeof AgentList>;

/** `POST /v1/agents/{agent_id}/versions`: a new immutable agent version. */
export const CreateAgentVersionRequest = WireObject("A new agent version.", {
  toolset_id: Id("The toolset whose version this agent version pins."),
  toolset_version: VersionNumber("The pinned toolset version; it must exist."),
  model: ModelSettings,
  instructions: Type.Optional(
    StoredText({ description: `${INSTRUCTIONS} Default \`""\`.`, maxLength: INSTRUCTIONS_MAX_LENGTH }),
  ),
  max_context_tokens: Type.Optional(
    Type.Integer({
      description: `${CONTEXT_TOKENS} Default ${MAX_CONTEXT_TOKENS.default}.`,
      minimum: min,
      maximum: max,
    }),
  ),
  max_turns: runLimit("max_turns"),
  max_tool_calls: runLimit("max_tool_calls"),
  run_timeout_ms: runLimit("run_timeout_ms"),
});

/** `POST /v1/agents/{agent_id}/versions` body. */
export type CreateAgentVersionRequest = Static<typeof CreateAgentVersionRequest>;

/** An immutable agent version. */
export const AgentVersion = WireObject("An immutable agent version.", {
  agent_version: AGENT_VERSION,
  agent_id: AGENT_ID,
  toolset_id: Id("The pinned toolset."),
  toolset_version: VersionNumber("The pinned toolset version."),
  model: StoredModelSettings,
  instructions: Type.String({ description: INSTRUCTIONS }),
  max_context_tokens: Type.Integer({ description: CONTEXT_TOKENS, minimum: min, maximum: max }),
  max_turns: storedRunLimit("max_turns"),
  max_tool_calls: storedRunLimit("max_tool_calls"),
  run_timeout_ms: storedRunLimit("run_timeout_ms"),
  created_at: Timestamp("When the version was published."),
});

/** An immutable agent version. */
export type AgentVersion = Static<typeof AgentVersion>;

/** `GET /v1/agents/{agent_id}/versions` answer. */
export const AgentVersionList = Page("Versions of one agent, oldest first.", AgentVersion);

/** `GET /v1/agents/{agent_id}/versions` answer. */
export type AgentVersionList = Static<typeof AgentVersionList>;

/** Path parameters of `/v1/agents/{agent_id}` and its `/versions`. */
export const AgentIdParams = WireObject("Names one agent.", { agent_id: AGENT_ID });

/** Path parameters of `/v1/agents/{agent_id}`. */
export type AgentIdParams = Static<typeof AgentIdParams>;

/** Path parameters of `/v1/agents/{agent_id}/versions/{agent_version}`. */
export const AgentVersionParams = WireObject("Names one version of one agent.", {
  agent_id: AGENT_ID,
  agent_version: AGENT_VERSION,
});

/** Path parameters of `/v1/agents/{agent_id}/versions/{agent_version}`. */
export type AgentVersionParams = Static<typeof AgentVersionParams>;
