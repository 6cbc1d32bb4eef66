/** The agent version a run pins and the tools of its toolset version (the run's model and toolset). */

import type { ToolDefinition } from "@toolhost/protocol";
import { readStoredTools } from "../storage/config/stored-tools.js";
import type { AgentVersionRecord, ToolsetVersionRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";

/** A run's pinned agent version and its tools. */
export interface RunTools {
  version: AgentVersionRecord;
  tools: ToolDefinition[];
}

/** Loads agent version `agentVersion` and its tools; a missing one is corrupt data (throws, 500). */
export async function loadRunTools(stores: Stores, agentVersion: string): Promise<RunTools> {
  // Runs exist only for agent versions their creator could see; the scope was checked on the run.
  const version = await stores.agents.getVersion(agentVersion, "*");
  if (version === undefined) throw new Error(`a run pins a missing agent version ${agentVersion}`);
  const toolset = await stores.toolsets.getVersion(version.toolset_id, version.toolset_version);
  if (toolset === undefined) {
    throw new Error(`agent version ${agentVersion} pins a missing toolset version ${version.toolset_id}`);
  }
  return { version, tools: toolsOf(toolset) };
}

/**
 * Parsed tools per toolset version record. The storage hands out the same frozen record for a version
 * each time (immutable-row-cache.ts), so each version's tools are parsed once while it is cached.
 */
const parsedTools = new WeakMap<ToolsetVersionRecord, ToolDefinition[]>();

function toolsOf(toolset: ToolsetVersionRecord): ToolDefinition[] {
  let tools = parsedTools.get(toolset);
  if (tools === undefined) {
    tools = readStoredTools(toolset.tools_json);
    parsedTools.set(toolset, tools);
  }
  return tools;
}
