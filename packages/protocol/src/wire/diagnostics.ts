/**
 * Wire schema of `GET /v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics` (docs/configuration.md):
 * whether the agent's versions reference the binding and with which tools, the binding's executors
 * and calls, and named checks with a verdict and a message each.
 */

import { type Static, Type } from "typebox";
import { TOOL_EFFECTS } from "../config/tool-effect.js";
import { RESULT_CONTEXT_BYTES } from "../projection/budget.js";
import { Id, Nullable, Timestamp, WireObject } from "./common.js";
import { VersionNumber } from "./toolsets.js";

/** Path parameters of the diagnostics route. */
export const DiagnosticsParams = WireObject("Names one agent and one executor binding.", {
  agent_id: Id("The agent's ID."),
  binding_id: Id("The executor binding's ID."),
});

/** Path parameters of the diagnostics route. */
export type DiagnosticsParams = Static<typeof DiagnosticsParams>;

const count = (description: string) => Type.Integer({ description, minimum: 0 });

/** An executor connected to the binding. */
export const OnlineExecutor = WireObject("An executor whose live connection serves the binding.", {
  executor_id: Id("The executor's stable ID, chosen by the product."),
  connection_id: Id("Its current connection."),
  connected_at: Timestamp("When the connection was made."),
  last_heartbeat_at: Timestamp("Its latest heartbeat."),
  lease_expires_at: Timestamp("It goes offline then without another heartbeat."),
  tool_names: Nullable(
    Type.Array(Type.String({ description: "A tool name." }), { description: "In the order declared." }),
    "The tools its connection declared it runs; null when it declared none (an older executor: assumed to serve every tool).",
  ),
});

/** The latest tool call on the binding that an executor completed with a final receipt. */
export const VerifiedExecution = WireObject("The latest call on the binding completed by an executor.", {
  run_id: Id("The run."),
  call_id: Id("The call."),
  tool_name: Type.String({ description: "The tool." }),
  executor_id: Id("The executor that completed it."),
  completed_at: Timestamp("When its final receipt was stored."),
});

/** One named check: whether it holds, and why. */
export const DiagnosticCheck = WireObject("One named check.", {
  name: Type.String({
    description:
      "Stable check name: `binding_exists`, `agent_has_versions`, `binding_referenced`, `executor_online`, `tools_served`, `no_stale_pending`, `no_reconciliation_backlog`, `execution_verified`; more may be added.",
  }),
  ok: Type.Boolean({ description: "True when the check holds." }),
  message: Type.String({ description: "What was found and, when not ok, what to do; for people." }),
});

/** One named check. */
export type DiagnosticCheck = Static<typeof DiagnosticCheck>;

/** The diagnostics of one binding as one agent uses it. */
export const BindingDiagnostics = WireObject("How one agent's versions use one executor binding, and its health.", {
  agent_id: Id("The agent."),
  binding_id: Id("The executor binding."),
  referenced: Type.Boolean({
    description: "True when some version of the agent pins a toolset version using the binding.",
  }),
  referenced_by: Type.Array(
    WireObject("An agent version whose toolset version uses the binding.", {
      agent_version: Id("The agent version."),
      toolset_id: Id("Its toolset."),
      toolset_version: VersionNumber("Its toolset version."),
    }),
    { description: "The referencing agent versions, oldest first." },
  ),
  tools: Type.Array(
    WireObject("A tool that runs on the binding.", {
      name: Type.String({ description: "The tool's name." }),
      agent_version: Id("The agent version pinning it."),
      effect: Type.Enum(Object.values(TOOL_EFFECTS), { description: "`read` or `write`." }),
      max_result_context_bytes: Type.Integer({
        description: "The tool's result budget in bytes of compact JSON.",
        minimum: RESULT_CONTEXT_BYTES.min,
        maximum: RESULT_CONTEXT_BYTES.max,
      }),
    }),
    { description: "Every tool on the binding, per referencing agent version." },
  ),
  executors: WireObject("The binding's executors.", {
    online: Type.Array(OnlineExecutor, { description: "Executors online for the binding now." }),
    last_heartbeat_at: Nullable(
      Timestamp("The latest heartbeat."),
      "The latest heartbeat of any executor; null when none.",
    ),
  }),
  calls: WireObject("The agent's tool calls on the binding that are not settled.", {
    pending: count("Waiting for an executor to claim them."),
    claimed: count("Claimed, not yet accepted."),
    accepted: count("Accepted; the business operation may be running."),
    reconciliation_required: count("The business result is unknown; the product must reconcile."),
    oldest_pending_age_ms: Nullable(count("Milliseconds."), "Age of the oldest pending call; null when none."),
  }),
  last_verified_execution: Nullable(VerifiedExecution, "The latest completed call on the binding; null when none."),
  checks: Type.Array(DiagnosticCheck, { description: "Named checks, in a fixed order." }),
});

/** The diagnostics answer. */
export type BindingDiagnostics = Static<typeof BindingDiagnostics>;
