/**
 * Loading the tool a dry-run checks: the agent version (inside the caller's agent scope, else 404 as if
 * missing), its pinned toolset version, and the named tool in it (404 pointing at `/tool_name`). A tool
 * whose binding lies outside the caller's binding scope answers like a missing one and is left out of
 * the tool names the 404 lists: a dry-run shows the tool's definition, which belongs to its binding.
 */

import { ProtocolError, type ToolDefinition } from "@toolhost/protocol";
import { agentScopeOf, inBindingScope } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import { readStoredTools } from "../storage/config/stored-tools.js";
import type { Storage } from "../storage/storage.js";

/** The tool `toolName` of agent version `agentVersion`, as the caller may see it; throws 404 `not_found`. */
export async function loadDryRunTool(
  storage: Storage,
  identity: Identity,
  agentVersion: string,
  toolName: string,
): Promise<ToolDefinition> {
  const version = await storage.agents.getVersion(agentVersion, agentScopeOf(identity));
  if (version === undefined) {
    throw new ProtocolError("not_found", `agent version ${JSON.stringify(agentVersion)} not found`, "/agent_version");
  }
  const toolset = await storage.toolsets.getVersion(version.toolset_id, version.toolset_version);
  if (toolset === undefined) {
    throw new Error(
      `agent version ${agentVersion} pins a missing toolset version ${version.toolset_id}@${version.toolset_version}`,
    );
  }
  const tools = readStoredTools(toolset.tools_json).filter((candidate) =>
    inBindingScope(identity, candidate.binding_id),
  );
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (tool === undefined) {
    throw new ProtocolError(
      "not_found",
      `tool ${JSON.stringify(toolName)} not found in agent version ${JSON.stringify(agentVersion)}`,
      "/tool_name",
      { tools: tools.map((candidate) => candidate.name) },
    );
  }
  return tool;
}
