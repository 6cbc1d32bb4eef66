/**
 * Publishing the code-first tools a module exports (declared once with `defineTool`) as a toolset
 * version — what `toolhost tools sync` and the runner's own slim `toolhost-tools sync` do. The tools
 * are read, never run; the module is imported from the file system.
 */

import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CodeFirstTool } from "./code-first-tools.js";
import { toolInputsOf } from "./code-first-tools.js";
import { RunnerError } from "./errors.js";
import { type PublishedToolset, publishToolset } from "./toolset-publisher.js";

/** What to publish, and where. */
export interface ToolsSyncRequest {
  /** The module exporting the tools (absolute, or relative to `cwd`). */
  readonly modulePath: string;
  /** The module's export holding the tools (a list of `defineTool` results). */
  readonly exportName: string;
  /** The server's base URL. */
  readonly url: string;
  /** An API key with `configuration:write`. */
  readonly apiKey: string;
  /** The executor binding the tools run on (unless a tool names its own). */
  readonly bindingId: string;
  /** Exactly one: the next version of this toolset, or a new toolset with this name. */
  readonly target: { readonly toolsetId: string } | { readonly name: string };
  /** Where a relative module path is resolved (default: the process's working directory). */
  readonly cwd?: string;
}

/** The tools `module` exports under `name`; a RunnerError when it is not a list of defineTool tools. */
function toolsOf(module: Record<string, unknown>, name: string, path: string): CodeFirstTool[] {
  const tools = module[name];
  const valid =
    Array.isArray(tools) &&
    tools.every(
      (tool) => typeof tool === "object" && tool !== null && typeof (tool as CodeFirstTool).definition === "object",
    );
  if (!valid) {
    throw new RunnerError(
      "invalid_registration",
      `${path} does not export "${name}" as a list of defineTool(...) tools`,
    );
  }
  return tools as CodeFirstTool[];
}

/** Imports the module and publishes its tools, unless the toolset's latest version already holds them. */
export async function syncToolsModule(request: ToolsSyncRequest): Promise<PublishedToolset> {
  const cwd = request.cwd ?? process.cwd();
  const path = isAbsolute(request.modulePath) ? request.modulePath : resolve(cwd, request.modulePath);
  const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const tools = toolInputsOf(
    toolsOf(module, request.exportName, request.modulePath).map((tool) => tool.definition),
    [request.bindingId],
  );
  return publishToolset(
    { baseUrl: request.url.replace(/\/+$/, ""), apiKey: request.apiKey, fetch: globalThis.fetch },
    tools,
    "toolsetId" in request.target ? { toolsetId: request.target.toolsetId } : { name: request.target.name },
  );
}
