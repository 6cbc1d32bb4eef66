/** The agent versions the schema page offers: every version of every agent in scope, newest first. */

import type { Agent, AgentVersion } from "@toolhost/protocol/wire";
import type { ApiClient } from "../../api/api-client.js";

/** One choice: a version and its agent's name. */
export interface VersionChoice {
  readonly agent: Agent;
  readonly version: AgentVersion;
}

/** Loads the choices (one request per agent). */
export async function loadVersionChoices(client: ApiClient): Promise<VersionChoice[]> {
  const agents = await client.agents();
  const perAgent = await Promise.all(
    agents.map(async (agent) => (await client.agentVersions(agent.agent_id)).map((version) => ({ agent, version }))),
  );
  return perAgent.flat().sort((a, b) => b.version.created_at.localeCompare(a.version.created_at));
}
