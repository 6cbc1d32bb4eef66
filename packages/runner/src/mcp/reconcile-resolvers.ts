/**
 * What the bridge answers when a write call's outcome is unknown (the MCP server or the bridge died
 * mid-call, the connection broke, the call timed out). An MCP server has no standard way to be asked
 * "did operation K happen?", so the bridge cannot find out by itself:
 *
 * - `fail` (default): settles the call `failed` with code `mcp_outcome_unknown`, saying the write may
 *   or may not have happened — the model already saw the unknown-outcome message and was told not to
 *   repeat it. Nothing is ever run twice.
 * - a command: run with the question as JSON on standard input; prints the outcome as JSON.
 * - a URL: the question is POSTed as JSON; the answer (200) is the outcome as JSON.
 *
 * The question is `{tool, mcp_tool, operation_key, run_id, call_id, subject, arguments}`; the outcome
 * is `{"kind":"completed","result":…}`, `{"kind":"failed","error":{"code","message"}}`,
 * `{"kind":"cancelled"}`, or `null` / `{"kind":"unknown"}` when it cannot tell yet (asked again later,
 * as on a non-zero exit, a non-200 answer or unreadable output).
 */

import { spawn } from "node:child_process";
import type { ReconcileOutcome, ReconcileResolver } from "../registry.js";
import type { ToolCall } from "../tool-call.js";

/** How the bridge settles unknown outcomes. */
export type McpResolverSpec =
  | "fail"
  | { readonly command: string; readonly args?: readonly string[] }
  | { readonly url: string; readonly headers?: Readonly<Record<string, string>> }
  | ReconcileResolver;

/** The error code the `fail` resolver settles unknown outcomes with. */
export const MCP_OUTCOME_UNKNOWN_CODE = "mcp_outcome_unknown";

/** The longest a command or URL resolver may take before its answer counts as "cannot tell yet". */
export const RESOLVER_TIMEOUT_MS = 30_000;

/** The question put to a command or URL resolver. */
export function resolverQuestion(call: ToolCall, operationKey: string, mcpName: string): Record<string, unknown> {
  return {
    tool: call.toolName,
    mcp_tool: mcpName,
    operation_key: operationKey,
    run_id: call.runId,
    call_id: call.callId,
    subject: call.subject,
    arguments: call.arguments,
  };
}

/** Reads a resolver's JSON answer; null when it says it cannot tell or is not an outcome. */
export function readResolverAnswer(text: string): ReconcileOutcome | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const answer = value as Record<string, unknown>;
  if (answer.kind === "completed" && Object.hasOwn(answer, "result"))
    return { kind: "completed", result: answer.result };
  if (answer.kind === "cancelled") {
    return typeof answer.message === "string" ? { kind: "cancelled", message: answer.message } : { kind: "cancelled" };
  }
  if (answer.kind === "failed") {
    const error = answer.error as Record<string, unknown> | undefined;
    if (typeof error?.code === "string" && typeof error.message === "string") {
      return { kind: "failed", error: { code: error.code, message: error.message } };
    }
  }
  return null;
}

/** The resolver for `spec`, asked about a call of the MCP tool `mcpName`. */
export function mcpResolver(spec: McpResolverSpec, mcpName: string): ReconcileResolver {
  if (typeof spec === "function") return spec;
  if (spec === "fail") {
    return () => ({
      kind: "failed",
      error: {
        code: MCP_OUTCOME_UNKNOWN_CODE,
        message: `the MCP tool ${mcpName} was called but no answer arrived: it may or may not have had its effect`,
      },
    });
  }
  if ("command" in spec) {
    return (call, key) => askCommand(spec.command, spec.args ?? [], resolverQuestion(call, key, mcpName));
  }
  return (call, key) => askUrl(spec.url, spec.headers ?? {}, resolverQuestion(call, key, mcpName));
}

function askCommand(command: string, args: readonly string[], question: unknown): Promise<ReconcileOutcome | null> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { stdio: ["pipe", "pipe", "inherit"] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), RESOLVER_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? readResolverAnswer(Buffer.concat(chunks).toString("utf8")) : null);
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(question));
  });
}

async function askUrl(
  url: string,
  headers: Readonly<Record<string, string>>,
  question: unknown,
): Promise<ReconcileOutcome | null> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(question),
      signal: AbortSignal.timeout(RESOLVER_TIMEOUT_MS),
    });
    const text = await response.text();
    return response.status === 200 ? readResolverAnswer(text) : null;
  } catch {
    return null;
  }
}
