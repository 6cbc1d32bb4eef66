/**
 * How an MCP `CallToolResult` becomes a toolhost outcome (pure). `content` becomes a `multimodal`
 * result — text blocks stay text (the server cuts them to the tool's budget), image and audio blocks
 * keep their bytes as `{type, mime_type, data}` (never cut, never counted), an embedded binary
 * resource becomes a `file` block — and a tool that declares an `outputSchema` answers its
 * `structuredContent` as a `json` result. `isError: true` is the MCP server saying the tool failed:
 * a definite failure, reported `failed` with the text it gave.
 */

/** The members of an MCP content block the mapping reads (the SDK's shapes, loosely). */
export interface McpContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: {
    readonly uri?: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
  };
}

/** The members of an MCP `CallToolResult` the mapping reads. */
export interface McpCallResult {
  readonly content?: readonly McpContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** One block of a toolhost multimodal result. */
export type MultimodalBlock =
  | { type: "text"; text: string; uri?: string }
  | { type: "image" | "audio" | "file"; mime_type: string; data: string; uri?: string };

/** What the bridge reports for a call. */
export type McpCallOutcome =
  | { readonly kind: "completed"; readonly result: unknown }
  | { readonly kind: "failed"; readonly code: string; readonly message: string };

/** The error code of a `failed` receipt for an MCP result with `isError: true`. */
export const MCP_TOOL_ERROR_CODE = "mcp_tool_error";

/** Maps one MCP content block to a multimodal block. */
export function multimodalBlock(block: McpContentBlock): MultimodalBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text ?? "" };
    case "image":
    case "audio":
      return { type: block.type, mime_type: block.mimeType ?? "application/octet-stream", data: block.data ?? "" };
    case "resource": {
      const resource = block.resource ?? {};
      const uri = resource.uri === undefined ? {} : { uri: resource.uri };
      if (typeof resource.blob === "string") {
        return {
          type: "file",
          mime_type: resource.mimeType ?? "application/octet-stream",
          data: resource.blob,
          ...uri,
        };
      }
      return { type: "text", text: resource.text ?? "", ...uri };
    }
    case "resource_link":
      return { type: "text", text: `resource: ${block.uri ?? ""}${block.name ? ` (${block.name})` : ""}` };
    default:
      // A block type this bridge does not know is shown as text, so the budget still covers it.
      return { type: "text", text: JSON.stringify(block) };
  }
}

/** The multimodal result `{"content":[…]}` of an MCP result's content. */
export function multimodalResult(result: McpCallResult): { content: MultimodalBlock[] } {
  return { content: (result.content ?? []).map(multimodalBlock) };
}

/** The text of an error result: its text blocks joined (what the model and the receipt show). */
export function errorText(result: McpCallResult): string {
  const texts = (result.content ?? []).filter((block) => block.type === "text").map((block) => block.text ?? "");
  const joined = texts.join("\n").trim();
  return joined === "" ? "the MCP tool reported an error without a message" : joined;
}

/**
 * The outcome of `result` for a tool whose result type is `resultType` (`json` for tools with an
 * output schema: their `structuredContent`, or the content when a result lacks it).
 */
export function mapCallResult(result: McpCallResult, resultType: "json" | "multimodal"): McpCallOutcome {
  if (result.isError === true) return { kind: "failed", code: MCP_TOOL_ERROR_CODE, message: errorText(result) };
  if (resultType === "json" && result.structuredContent !== undefined) {
    return { kind: "completed", result: result.structuredContent };
  }
  return { kind: "completed", result: multimodalResult(result) };
}
