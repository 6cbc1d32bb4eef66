/**
 * Binding diagnostics (pure): the answer of
 * `GET /v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics` computed from its facts.
 * Checks come in a fixed order, each a name, a verdict and a message saying what was found and what to
 * do. New facts (executors, calls) extend the answer and add checks; existing checks keep their names.
 */

import type { BindingDiagnostics, DiagnosticCheck } from "@toolhost/protocol/wire";
import { isoTime, isoTimeOrNull } from "../http/wire-time.js";
import type { DiagnosticFacts, OnlineExecutorFact } from "./diagnostic-facts.js";

/** The names of the checks, in answer order. */
export const DIAGNOSTIC_CHECKS = {
  /** The binding is registered. */
  binding_exists: "binding_exists",
  /** The agent has published at least one version. */
  agent_has_versions: "agent_has_versions",
  /** Some version of the agent pins a toolset version with a tool on the binding. */
  binding_referenced: "binding_referenced",
  /** At least one executor is online for the binding. */
  executor_online: "executor_online",
  /** Every tool on the binding has an online executor that declared it (or declared no tools at all). */
  tools_served: "tools_served",
  /** No pending call of the agent on the binding has waited longer than STALE_PENDING_MS. */
  no_stale_pending: "no_stale_pending",
  /** No call of the agent on the binding waits for reconciliation. */
  no_reconciliation_backlog: "no_reconciliation_backlog",
  /** An executor has completed at least one of the agent's calls on the binding. */
  execution_verified: "execution_verified",
} as const;

/** A pending call older than this means no executor is picking the binding's calls up. */
export const STALE_PENDING_MS = 60_000;

/** The diagnostics answer for `facts`. */
export function diagnose(facts: DiagnosticFacts): BindingDiagnostics {
  const executors = facts.executors;
  const calls = facts.calls;
  const verified = facts.last_verified_execution;
  const oldestPending = calls?.oldest_pending_created_at_ms ?? null;
  return {
    agent_id: facts.agent_id,
    binding_id: facts.binding_id,
    referenced: facts.referencing.length > 0,
    referenced_by: facts.referencing.map(({ agent_version, toolset_id, toolset_version }) => ({
      agent_version,
      toolset_id,
      toolset_version,
    })),
    tools: facts.referencing.flatMap(({ agent_version, tools }) =>
      tools.map((tool) => ({
        name: tool.name,
        agent_version,
        effect: tool.effect,
        max_result_context_bytes: tool.max_result_context_bytes,
      })),
    ),
    executors: {
      online: (executors?.online ?? []).map((executor) => ({
        executor_id: executor.executor_id,
        connection_id: executor.connection_id,
        connected_at: isoTime(executor.connected_at_ms),
        last_heartbeat_at: isoTime(executor.last_heartbeat_at_ms),
        lease_expires_at: isoTime(executor.lease_expires_at_ms),
        tool_names: executor.tool_names === null ? null : [...executor.tool_names],
      })),
      last_heartbeat_at: isoTimeOrNull(executors?.last_heartbeat_at_ms ?? null),
    },
    calls: {
      pending: calls?.pending ?? 0,
      claimed: calls?.claimed ?? 0,
      accepted: calls?.accepted ?? 0,
      reconciliation_required: calls?.reconciliation_required ?? 0,
      oldest_pending_age_ms: oldestPending === null ? null : Math.max(0, facts.now_ms - oldestPending),
    },
    last_verified_execution:
      verified === null
        ? null
        : {
            run_id: verified.run_id,
            call_id: verified.call_id,
            tool_name: verified.tool_name,
            executor_id: verified.executor_id,
            completed_at: isoTime(verified.completed_at_ms),
          },
    checks: checksOf(facts),
  };
}

/** The named checks, in DIAGNOSTIC_CHECKS order. */
function checksOf(facts: DiagnosticFacts): DiagnosticCheck[] {
  const binding = JSON.stringify(facts.binding_id);
  const agent = JSON.stringify(facts.agent_id);
  const referencing = facts.referencing;
  const toolNames = [...new Set(referencing.flatMap((version) => version.tools.map((tool) => tool.name)))];
  const online = facts.executors?.online ?? [];
  const calls = facts.calls;
  const oldestPending = calls?.oldest_pending_created_at_ms ?? null;
  const pendingAgeMs = oldestPending === null ? null : Math.max(0, facts.now_ms - oldestPending);
  const stale = pendingAgeMs !== null && pendingAgeMs >= STALE_PENDING_MS;
  const backlog = calls?.reconciliation_required ?? 0;
  const verified = facts.last_verified_execution;
  return [
    {
      name: DIAGNOSTIC_CHECKS.binding_exists,
      ok: facts.binding_exists,
      message: facts.binding_exists
        ? `executor binding ${binding} is registered`
        : `executor binding ${binding} is not registered; register it with POST /v1/executor-bindings`,
    },
    {
      name: DIAGNOSTIC_CHECKS.agent_has_versions,
      ok: facts.agent_has_versions,
      message: facts.agent_has_versions
        ? `agent ${agent} has published versions`
        : `agent ${agent} has no versions yet; publish one with POST /v1/agents/${facts.agent_id}/versions`,
    },
    {
      name: DIAGNOSTIC_CHECKS.binding_referenced,
      ok: referencing.length > 0,
      message:
        referencing.length > 0
          ? `${referencing.length} version(s) of agent ${agent} pin tools on binding ${binding}: ${toolNames.join(", ")}`
          : `no version of agent ${agent} pins a toolset version with a tool on binding ${binding}; its runs never call this binding`,
    },
    {
      name: DIAGNOSTIC_CHECKS.executor_online,
      ok: online.length > 0,
      message:
        online.length > 0
          ? `${online.length} executor(s) online for binding ${binding}: ${online.map((e) => e.executor_id).join(", ")}`
          : facts.executors === null
            ? `no executor is online for binding ${binding}: no executor has connected (executor connections are not available in this server version yet)`
            : `no executor is online for binding ${binding}; start an executor that connects with this binding`,
    },
    toolsServedCheck(toolNames, online, binding),
    {
      name: DIAGNOSTIC_CHECKS.no_stale_pending,
      ok: !stale,
      message: stale
        ? `the oldest of ${calls?.pending ?? 0} pending call(s) of agent ${agent} on binding ${binding} has waited ${Math.round((pendingAgeMs ?? 0) / 1000)} s; check that an executor is online, heartbeats, polls pending and claims`
        : pendingAgeMs === null
          ? `no call of agent ${agent} is pending on binding ${binding}`
          : `${calls?.pending ?? 0} pending call(s) of agent ${agent} on binding ${binding}, the oldest ${Math.round(pendingAgeMs / 1000)} s old`,
    },
    {
      name: DIAGNOSTIC_CHECKS.no_reconciliation_backlog,
      ok: backlog === 0,
      message:
        backlog === 0
          ? `no call of agent ${agent} on binding ${binding} waits for reconciliation`
          : `${backlog} call(s) of agent ${agent} on binding ${binding} have an unknown outcome; the product must reconcile them and send their final receipts`,
    },
    {
      name: DIAGNOSTIC_CHECKS.execution_verified,
      ok: verified !== null,
      message:
        verified !== null
          ? `executor ${JSON.stringify(verified.executor_id)} completed call ${JSON.stringify(verified.call_id)} (${verified.tool_name}) on binding ${binding} at ${isoTime(verified.completed_at_ms)}`
          : `no call of agent ${agent} on binding ${binding} was completed by an executor yet; a dry-run does not verify execution`,
    },
  ];
}

/** `tools_served`: the binding's tools that no online executor serves, by the tools each declared. */
function toolsServedCheck(
  toolNames: readonly string[],
  online: readonly OnlineExecutorFact[],
  binding: string,
): DiagnosticCheck {
  const name = DIAGNOSTIC_CHECKS.tools_served;
  if (toolNames.length === 0) return { name, ok: true, message: `no tool runs on binding ${binding}` };
  const serves = (executor: OnlineExecutorFact, tool: string) =>
    executor.tool_names === null || executor.tool_names.includes(tool);
  const unserved = toolNames.filter((tool) => !online.some((executor) => serves(executor, tool)));
  const undeclared = online.filter((executor) => executor.tool_names === null).map((e) => e.executor_id);
  const assumed =
    undeclared.length === 0
      ? ""
      : `; executor(s) ${undeclared.join(", ")} declared no tools and are assumed to serve every tool`;
  if (unserved.length === 0) {
    const servers = (tool: string) =>
      online
        .filter((executor) => serves(executor, tool))
        .map((e) => e.executor_id)
        .join(", ");
    return {
      name,
      ok: true,
      message: `every tool on binding ${binding} has an online executor: ${toolNames.map((tool) => `${tool} (${servers(tool)})`).join(", ")}${assumed}`,
    };
  }
  const listed = unserved.map((tool) => JSON.stringify(tool)).join(", ");
  const what = unserved.length === 1 ? `tool ${listed}` : `tools ${listed}`;
  const declared = online
    .filter((executor) => executor.tool_names !== null)
    .map((e) => `${e.executor_id} serves ${(e.tool_names ?? []).join(", ") || "no tool"}`);
  const them = unserved.length === 1 ? "it" : "them";
  const advice =
    online.length === 0
      ? `(no executor is online); start an executor connected for this binding that registers ${them}`
      : `(${declared.join("; ")}); register ${unserved.length === 1 ? "a handler" : "handlers"} for ${them} in an executor connected for this binding`;
  return { name, ok: false, message: `no online executor serves ${what} on binding ${binding} ${advice}${assumed}` };
}
