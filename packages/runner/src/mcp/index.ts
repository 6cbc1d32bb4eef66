/**
 * @toolhost/runner/mcp — the MCP bridge: any Model Context Protocol server (stdio or Streamable HTTP)
 * served as a toolhost executor through ToolRunner. Needs the optional peer dependency
 * `@modelcontextprotocol/sdk`.
 */

export {
  MCP_REQUEST_REFUSED_CODE,
  MCP_UNAVAILABLE_CODE,
  McpBridge,
  type McpBridgeOptions,
  type McpToolsChange,
  OPERATION_KEY_META,
} from "./mcp-bridge.js";
export { MCP_CLIENT_INFO, type McpServerSpec, McpUnavailableError } from "./mcp-connection.js";
export {
  MCP_OUTCOME_UNKNOWN_CODE,
  type McpResolverSpec,
  mcpResolver,
  readResolverAnswer,
  resolverQuestion,
} from "./reconcile-resolvers.js";
export {
  errorText,
  MCP_TOOL_ERROR_CODE,
  type McpCallOutcome,
  type McpCallResult,
  type McpContentBlock,
  type MultimodalBlock,
  mapCallResult,
  multimodalBlock,
  multimodalResult,
} from "./result-mapping.js";
export {
  MCP_DEFAULT_BUDGET,
  type McpMappedTool,
  type McpSkippedTool,
  type McpToolDescription,
  type McpToolMapping,
  type McpToolSelection,
  mapMcpTools,
  toolsetTools,
} from "./tool-mapping.js";
