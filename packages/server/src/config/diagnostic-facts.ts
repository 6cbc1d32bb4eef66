/**
 * What binding diagnostics are computed from, and the loader that reads it from storage. `diagnose`
 * (pure) turns facts into the answer. Besides the configuration, the loader reads the executor
 * protocol's facts: the binding's executor connections (online = current connection live now, with
 * the tools each declared), the agent's unsettled calls on the binding, and the last call an executor
 * completed there.
 */

import type { ToolDefinition } from "@toolhost/protocol";
import { isLeaseLive } from "../auth/executor-access.js";
import { agentScopeOf, bindingScopeOf, notFoundError } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import { readStoredTools } from "../storage/config/stored-tools.js";
import type { Stores } from "../storage/storage.js";

/** An agent version whose toolset version has tools on the binding. */
export interface ReferencingVersion {
  readonly agent_version: string;
  readonly toolset_id: string;
  readonly toolset_version: number;
  /** Its tools that run on the binding, in toolset order. */
  readonly tools: readonly ToolDefinition[];
}

/** An executor connection serving the binding. */
export interface OnlineExecutorFact {
  readonly executor_id: string;
  readonly connection_id: string;
  readonly connected_at_ms: number;
  readonly last_heartbeat_at_ms: number;
  /** The connection goes offline then without another heartbeat. */
  readonly lease_expires_at_ms: number;
  /** The tools the connection declared; null when it declared none (assumed to serve every tool). */
  readonly tool_names: readonly string[] | null;
}

/** The binding's executor connections. */
export interface ExecutorFacts {
  readonly online: readonly OnlineExecutorFact[];
  /** The latest heartbeat of any executor on the binding, online or not. */
  readonly last_heartbeat_at_ms: number | null;
}

/** Counts of the agent's unsettled tool calls on the binding. */
export interface CallFacts {
  readonly pending: number;
  readonly claimed: number;
  readonly accepted: number;
  readonly reconciliation_required: number;
  readonly oldest_pending_created_at_ms: number | null;
}

/** The latest call on the binding an executor completed. */
export interface VerifiedExecutionFact {
  readonly run_id: string;
  readonly call_id: string;
  readonly tool_name: string;
  readonly executor_id: string;
  readonly completed_at_ms: number;
}

/** Everything `diagnose` needs. */
export interface DiagnosticFacts {
  readonly agent_id: string;
  readonly binding_id: string;
  /** The binding is registered (the route answers 404 before diagnosing when it is not). */
  readonly binding_exists: boolean;
  /** The agent has at least one version. */
  readonly agent_has_versions: boolean;
  /** The agent's versions using the binding, oldest first. */
  readonly referencing: readonly ReferencingVersion[];
  /** The binding's executors (null only where no executor connections are tracked). */
  readonly executors: ExecutorFacts | null;
  /** The agent's unsettled calls on the binding (null only where no tool calls are tracked). */
  readonly calls: CallFacts | null;
  /** Null when no call on the binding was completed by an executor. */
  readonly last_verified_execution: VerifiedExecutionFact | null;
  /** When the facts were read. */
  readonly now_ms: number;
}

/** Reads the facts for `agentId` and `bindingId`; 404 when either is missing or outside `identity`'s scopes. */
export async function loadDiagnosticFacts(
  stores: Stores,
  identity: Identity,
  agentId: string,
  bindingId: string,
  nowMs: number,
): Promise<DiagnosticFacts> {
  if ((await stores.agents.get(agentId, agentScopeOf(identity))) === undefined) throw notFoundError("agent", agentId);
  const binding = await stores.bindings.get(bindingId, bindingScopeOf(identity));
  if (binding === undefined) throw notFoundError("executor binding", bindingId);
  const versions = await stores.agents.versionsReferencingBinding(agentId, bindingId);
  const firstVersion = await stores.agents.listVersions(agentId, { limit: 1 });
  // Many agent versions often pin the same toolset version: read each toolset version once.
  const toolsByVersion = new Map<string, ToolDefinition[]>();
  const referencing: ReferencingVersion[] = [];
  for (const version of versions) {
    const key = `${version.toolset_id}\u0000${version.toolset_version}`;
    let tools = toolsByVersion.get(key);
    if (tools === undefined) {
      const stored = await stores.toolsets.getVersion(version.toolset_id, version.toolset_version);
      tools = stored === undefined ? [] : readStoredTools(stored.tools_json).filter((t) => t.binding_id === bindingId);
      toolsByVersion.set(key, tools);
    }
    referencing.push({
      agent_version: version.agent_version,
      toolset_id: version.toolset_id,
      toolset_version: version.toolset_version,
      tools,
    });
  }
  const [executors, calls, verified] = await Promise.all([
    executorFacts(stores, bindingId, nowMs),
    stores.callStats.countsFor(agentId, bindingId),
    stores.callStats.lastCompleted(agentId, bindingId),
  ]);
  return {
    agent_id: agentId,
    binding_id: bindingId,
    binding_exists: true,
    agent_has_versions: firstVersion.items.length > 0,
    referencing,
    executors,
    calls,
    last_verified_execution:
      verified === undefined
        ? null
        : {
            run_id: verified.run_id,
            call_id: verified.call_id,
            tool_name: verified.tool_name,
            executor_id: verified.executor_id,
            completed_at_ms: verified.settled_at_ms,
          },
    now_ms: nowMs,
  };
}

/** The binding's executors: those whose current connection is live at `nowMs`, and the latest heartbeat of any. */
async function executorFacts(stores: Stores, bindingId: string, nowMs: number): Promise<ExecutorFacts> {
  const executors = await stores.executors.listByBinding(bindingId);
  return {
    online: executors
      .filter((executor) => isLeaseLive(executor, nowMs))
      .map((executor) => ({
        executor_id: executor.executor_id,
        connection_id: executor.connection_id,
        connected_at_ms: executor.connected_at_ms,
        last_heartbeat_at_ms: executor.last_heartbeat_ms,
        lease_expires_at_ms: executor.lease_expires_ms,
        tool_names: executor.tool_names,
      })),
    last_heartbeat_at_ms: executors.reduce<number | null>(
      (latest, executor) => Math.max(latest ?? executor.last_heartbeat_ms, executor.last_heartbeat_ms),
      null,
    ),
  };
}
