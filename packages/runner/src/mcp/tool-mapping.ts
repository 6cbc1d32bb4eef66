/**
 * How an MCP server's tools become toolhost tool definitions (pure): the MCP `inputSchema` becomes
 * `input_schema`, `outputSchema` becomes `output_schema`, `effect` comes from `annotations.readOnlyHint`
 * (only an explicit `true` makes a read: a write is the safe assumption) unless overridden per tool,
 * and every tool gets a context budget. A tool the platform cannot take (a name outside the tool-name
 * pattern, a schema that is not draft 2020-12) is skipped with the reason, never published half-right.
 */

import {
  ProtocolError,
  RESULT_CONTEXT_BYTES,
  type ResultType,
  TOOL_NAME_PATTERN,
  type ToolDefinition,
  type ToolEffect,
  validateToolDefinition,
} from "@toolhost/protocol";

/** The members of an MCP tool (`tools/list`) the mapping reads. */
export interface McpToolDescription {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown> | undefined;
  readonly annotations?: { readonly readOnlyHint?: boolean | undefined } | undefined;
}

/** Which MCP tools to serve and how. Per-tool maps are keyed by the MCP tool name. */
export interface McpToolSelection {
  /** Serve only these MCP tool names (all when omitted). */
  readonly allow?: readonly string[] | undefined;
  /** Never serve these MCP tool names. */
  readonly deny?: readonly string[] | undefined;
  /** Put before every MCP name to make the toolhost name (`fs.` → `fs.read_file`). */
  readonly prefix?: string | undefined;
  /** `effect` per MCP tool, overriding `readOnlyHint`. */
  readonly effects?: Readonly<Record<string, ToolEffect>> | undefined;
  /** `max_result_context_bytes` per MCP tool (default `defaultBudget`). */
  readonly budgets?: Readonly<Record<string, number>> | undefined;
  /** The budget of tools not in `budgets` (default 16,384). */
  readonly defaultBudget?: number | undefined;
  /** `timeout_ms` of the published tools (the server's default when omitted). */
  readonly timeoutMs?: number | undefined;
}

/** One MCP tool mapped to toolhost. */
export interface McpMappedTool {
  /** The MCP server's name for the tool (what `tools/call` names). */
  readonly mcpName: string;
  /** The validated toolhost definition (name with the prefix, on the bridge's binding). */
  readonly definition: ToolDefinition;
  /** `json` when the MCP tool declares an `outputSchema` (its `structuredContent` is the result), else `multimodal`. */
  readonly resultType: ResultType;
}

/** An MCP tool left out, and why. */
export interface McpSkippedTool {
  readonly mcpName: string;
  readonly reason: string;
}

/** The mapping of one `tools/list`. */
export interface McpToolMapping {
  readonly tools: readonly McpMappedTool[];
  readonly skipped: readonly McpSkippedTool[];
}

/** Dialect URIs of JSON Schema the bridge accepts by dropping `$schema` (what MCP SDKs emit for draft-07). */
const OLDER_DIALECTS = new Set([
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
  "https://json-schema.org/draft-07/schema#",
  "https://json-schema.org/draft-07/schema",
]);

/** The default budget of a mapped tool (the platform's default, 16,384 bytes). */
export const MCP_DEFAULT_BUDGET = RESULT_CONTEXT_BYTES.default;

/** Maps `tools` for `bindingId`, in the server's order; allow/deny select by MCP name. */
export function mapMcpTools(
  tools: readonly McpToolDescription[],
  bindingId: string,
  selection: McpToolSelection = {},
): McpToolMapping {
  const mapped: McpMappedTool[] = [];
  const skipped: McpSkippedTool[] = [];
  const allow = selection.allow === undefined ? undefined : new Set(selection.allow);
  const deny = new Set(selection.deny ?? []);
  const seen = new Set<string>();
  for (const tool of tools) {
    if (allow !== undefined && !allow.has(tool.name)) continue;
    if (deny.has(tool.name)) continue;
    const name = `${selection.prefix ?? ""}${tool.name}`;
    if (!TOOL_NAME_PATTERN.test(name)) {
      skipped.push({ mcpName: tool.name, reason: `the name ${JSON.stringify(name)} is not a toolhost tool name` });
      continue;
    }
    if (seen.has(name)) {
      skipped.push({ mcpName: tool.name, reason: `the server lists ${JSON.stringify(tool.name)} twice` });
      continue;
    }
    try {
      mapped.push(mapOne(tool, name, bindingId, selection));
      seen.add(name);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      const at = error.pointer ? ` at ${error.pointer}` : "";
      skipped.push({ mcpName: tool.name, reason: `${error.code}${at}: ${error.message}` });
    }
  }
  return { tools: mapped, skipped };
}

function mapOne(tool: McpToolDescription, name: string, bindingId: string, selection: McpToolSelection) {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const effect: ToolEffect = selection.effects?.[tool.name] ?? (readOnly ? "read" : "write");
  const budget = selection.budgets?.[tool.name] ?? selection.defaultBudget ?? MCP_DEFAULT_BUDGET;
  const candidate: Record<string, unknown> = {
    name,
    description: tool.description ?? "",
    binding_id: bindingId,
    input_schema: draft2020(tool.inputSchema),
    ...(tool.outputSchema === undefined ? {} : { output_schema: draft2020(tool.outputSchema) }),
    max_result_context_bytes: budget,
    effect,
    ...(selection.timeoutMs === undefined ? {} : { timeout_ms: selection.timeoutMs }),
  };
  const definition = validateToolDefinition(candidate);
  const resultType: ResultType = tool.outputSchema === undefined ? "multimodal" : "json";
  return { mcpName: tool.name, definition, resultType };
}

/** The schema without an older `$schema` declaration (the keywords MCP servers use mean the same in 2020-12). */
function draft2020(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema !== "object" || schema === null || !Object.hasOwn(schema, "$schema")) return schema;
  const dialect = schema.$schema;
  if (typeof dialect !== "string" || !OLDER_DIALECTS.has(dialect)) return schema;
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

/** The toolset body `POST /v1/toolsets` (or `…/versions`) takes for a mapping. */
export function toolsetTools(mapping: McpToolMapping): ToolDefinition[] {
  return mapping.tools.map((tool) => tool.definition);
}
