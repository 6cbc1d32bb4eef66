/**
 * What the executors page shows, loaded together: the executors, the bindings, and the diagnostics of
 * every (agent, binding) pair an agent version references — from which each binding's tools follow.
 */

import type { Agent, Binding, BindingDiagnostics, ExecutorSummary } from "@toolhost/protocol/wire";
import type { ApiClient } from "../../api/api-client.js";

/** One binding with the diagnostics of the agents that use it. */
export interface BindingView {
  readonly binding: Binding;
  readonly diagnostics: ReadonlyArray<{ readonly agent: Agent; readonly report: BindingDiagnostics }>;
  /** Tool names on the binding, over every referencing agent version. */
  readonly toolNames: readonly string[];
}

/** The page's data. */
export interface ExecutorsView {
  readonly executors: readonly ExecutorSummary[];
  readonly bindings: readonly BindingView[];
}

/** Loads the page's data (one diagnostics request per agent and binding). */
export async function loadExecutorsView(client: ApiClient): Promise<ExecutorsView> {
  const [executors, bindings, agents] = await Promise.all([client.executors(), client.bindings(), client.agents()]);
  const views = await Promise.all(
    bindings.map(async (binding): Promise<BindingView> => {
      const reports = await Promise.all(
        agents.map(async (agent) => ({ agent, report: await client.diagnostics(agent.agent_id, binding.binding_id) })),
      );
      const used = reports.filter(({ report }) => report.referenced);
      const toolNames = [...new Set(used.flatMap(({ report }) => report.tools.map((tool) => tool.name)))].sort();
      return { binding, diagnostics: used, toolNames };
    }),
  );
  return { executors, bindings: views };
}

/** The tools an executor serves: those it declared at connect, else those of its bindings' toolsets. */
export function executorTools(
  executor: ExecutorSummary,
  bindings: readonly BindingView[],
): { readonly names: readonly string[]; readonly declared: boolean } {
  if (executor.tool_names !== undefined) return { names: executor.tool_names, declared: true };
  const names = new Set<string>();
  for (const view of bindings) {
    if (executor.binding_ids.includes(view.binding.binding_id)) for (const name of view.toolNames) names.add(name);
  }
  return { names: [...names].sort(), declared: false };
}
