/**
 * The command line of `toolhost mcp-executor`, read into the bridge's options (pure: no I/O). Kept
 * apart from the command so every rule — one MCP server, comma lists, `NAME=BYTES` budgets, one
 * resolver — is checked before anything starts.
 */

import { RESULT_CONTEXT_BYTES } from "@toolhost/protocol";
import type { McpResolverSpec, McpServerSpec, McpToolSelection } from "@toolhost/runner/mcp";
import { CommandFailure } from "../command-failure.js";
import { EXIT_STATUS } from "../exit-status.js";
import { commandLineWords } from "./command-line-words.js";

/** The options of `toolhost mcp-executor`, as commander hands them over. */
export interface McpExecutorOptions {
  command?: string;
  url?: string;
  header: string[];
  env: string[];
  toolhostUrl: string;
  key?: string;
  binding: string;
  executorId?: string;
  journal?: string;
  allow: string[];
  deny: string[];
  prefix?: string;
  read: string[];
  write: string[];
  budget?: string;
  toolBudget: string[];
  timeoutMs?: string;
  resolverCommand?: string;
  resolverUrl?: string;
  publish?: boolean;
  toolset?: string;
  toolsetName?: string;
  publishKey?: string;
  dryRun?: boolean;
  logLevel: string;
}

/** Collects a repeatable option whose values may also be comma lists (`--allow a,b --allow c`). */
export function collectNames(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  ];
}

/** Collects a repeatable option as given. */
export function collectValues(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function usage(message: string): never {
  throw new CommandFailure(message, EXIT_STATUS.usage);
}

/**
 * The environment `--env` adds for a stdio MCP server: `NAME=VALUE`, or `NAME` to pass the bridge's own
 * value on (nothing else of the bridge's environment reaches the MCP server beyond PATH, HOME and the like).
 */
export function mcpEnvironmentOf(
  entries: readonly string[],
  own: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf("=");
    const name = at < 0 ? entry : entry.slice(0, at);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      usage(`--env: expected NAME or NAME=VALUE, got ${JSON.stringify(entry)}`);
    const value = at < 0 ? own[name] : entry.slice(at + 1);
    if (value === undefined) usage(`--env ${name}: the variable is not set`);
    env[name] = value;
  }
  return env;
}

/** The MCP server of `--command` or `--url` (exactly one). */
export function mcpServerOf(
  options: McpExecutorOptions,
  own: Readonly<Record<string, string | undefined>> = {},
): McpServerSpec {
  if ((options.command === undefined) === (options.url === undefined)) {
    usage("name the MCP server with exactly one of --command (stdio) or --url (Streamable HTTP)");
  }
  if (options.url !== undefined) {
    if (options.env.length > 0) usage("--env applies to --command only");
    if (!URL.canParse(options.url)) usage(`--url: not a URL: ${options.url}`);
    const headers: Record<string, string> = {};
    for (const header of options.header) {
      const at = header.indexOf(":");
      if (at <= 0) usage(`--header: expected "Name: value", got ${JSON.stringify(header)}`);
      headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
    }
    return { kind: "http", url: options.url, headers };
  }
  let words: string[];
  try {
    words = commandLineWords(options.command ?? "");
  } catch (error) {
    usage(`--command: ${(error as Error).message}`);
  }
  const [command, ...args] = words;
  if (command === undefined) usage("--command: empty command");
  return { kind: "stdio", command, args, env: mcpEnvironmentOf(options.env, own) };
}

function integerOf(text: string, option: string, unit: string): number {
  if (!/^\d+$/.test(text)) usage(`${option}: expected a number of ${unit}, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** A budget in the platform's range (a tool with another would be skipped, not served). */
function budgetOf(text: string, option: string): number {
  const bytes = integerOf(text, option, "bytes");
  if (bytes < RESULT_CONTEXT_BYTES.min || bytes > RESULT_CONTEXT_BYTES.max) {
    usage(`${option}: a budget is ${RESULT_CONTEXT_BYTES.min}–${RESULT_CONTEXT_BYTES.max} bytes, got ${bytes}`);
  }
  return bytes;
}

/** Which tools and how: allow/deny, prefix, effect overrides, budgets, timeout. */
export function toolSelectionOf(options: McpExecutorOptions): McpToolSelection {
  const effects: Record<string, "read" | "write"> = {};
  for (const name of options.read) effects[name] = "read";
  for (const name of options.write) {
    if (effects[name] === "read") usage(`--read and --write both name ${name}`);
    effects[name] = "write";
  }
  const budgets: Record<string, number> = {};
  for (const entry of options.toolBudget) {
    const at = entry.lastIndexOf("=");
    if (at <= 0) usage(`--tool-budget: expected NAME=BYTES, got ${JSON.stringify(entry)}`);
    budgets[entry.slice(0, at)] = budgetOf(entry.slice(at + 1), "--tool-budget");
  }
  return {
    ...(options.allow.length > 0 ? { allow: options.allow } : {}),
    deny: options.deny,
    ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    effects,
    budgets,
    ...(options.budget === undefined ? {} : { defaultBudget: budgetOf(options.budget, "--budget") }),
    ...(options.timeoutMs === undefined
      ? {}
      : { timeoutMs: integerOf(options.timeoutMs, "--timeout-ms", "milliseconds") }),
  };
}

/** The resolver of unknown write outcomes: `fail`, `--resolver-command` or `--resolver-url`. */
export function resolverOf(options: McpExecutorOptions): McpResolverSpec {
  if (options.resolverCommand !== undefined && options.resolverUrl !== undefined) {
    usage("give at most one of --resolver-command and --resolver-url");
  }
  if (options.resolverUrl !== undefined) {
    if (!URL.canParse(options.resolverUrl)) usage(`--resolver-url: not a URL: ${options.resolverUrl}`);
    return { url: options.resolverUrl };
  }
  if (options.resolverCommand !== undefined) {
    let words: string[];
    try {
      words = commandLineWords(options.resolverCommand);
    } catch (error) {
      usage(`--resolver-command: ${(error as Error).message}`);
    }
    const [command, ...args] = words;
    if (command === undefined) usage("--resolver-command: empty command");
    return { command, args };
  }
  return "fail";
}

/** The executor ID: `--executor-id`, else `mcp-<binding>`. */
export function executorIdOf(options: McpExecutorOptions): string {
  return options.executorId ?? `mcp-${options.binding}`;
}

/** The journal file: `--journal`, else `<executor ID>.journal.db` in the working directory. */
export function journalPathOf(options: McpExecutorOptions): string {
  return options.journal ?? `${executorIdOf(options)}.journal.db`;
}
