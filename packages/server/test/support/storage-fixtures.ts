/** Record builders and a page walker for storage tests. */

import { createHash } from "node:crypto";
import type {
  AgentRecord,
  AgentVersionRecord,
  BindingRecord,
  KeyRecord,
  Page,
  SessionRecord,
  ToolsetRecord,
  ToolsetVersionRecord,
} from "../../src/storage/records.js";

/** A binding record. */
export function bindingRecord(bindingId: string, createdAtMs = 1_000): BindingRecord {
  return { binding_id: bindingId, name: `Binding ${bindingId}`, created_at_ms: createdAtMs };
}

/** A key record whose hash is the SHA-256 of `secret-<keyId>` unless overridden. */
export function keyRecord(keyId: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    key_id: keyId,
    name: `Key ${keyId}`,
    key_hash: createHash("sha256").update(`secret-${keyId}`).digest("hex"),
    scopes: ["configuration:read", "tools:execute"],
    agents: "*",
    bindings: ["b1", "b2"],
    connections: "*",
    created_at_ms: 1_000,
    revoked_at_ms: null,
    ...overrides,
  };
}

/** A tool list (as stored JSON text) with one tool per binding ID. */
export function toolsJson(bindingIds: readonly string[]): string {
  return JSON.stringify(
    bindingIds.map((bindingId, index) => ({
      name: `tool_${index}`,
      description: `Tool ${index}`,
      binding_id: bindingId,
      input_schema: { type: "object", properties: {} },
      max_result_context_bytes: 4096,
      effect: "write",
      timeout_ms: 30_000,
    })),
  );
}

/** A toolset and its version 1. */
export function toolsetRecords(
  toolsetId: string,
  createdAtMs = 1_000,
  tools = toolsJson(["b1"]),
): [ToolsetRecord, ToolsetVersionRecord] {
  return [
    { toolset_id: toolsetId, name: `Toolset ${toolsetId}`, latest_version: 1, created_at_ms: createdAtMs },
    { toolset_id: toolsetId, version: 1, tools_json: tools, created_at_ms: createdAtMs },
  ];
}

/** An agent record. */
export function agentRecord(agentId: string, createdAtMs = 1_000): AgentRecord {
  return { agent_id: agentId, name: `Agent ${agentId}`, created_at_ms: createdAtMs };
}

/** An agent version to append (its number is assigned by the store). */
export function agentVersionInput(
  agentId: string,
  agentVersion: string,
  toolsetId: string,
  toolsetVersion: number,
  createdAtMs = 2_000,
): Omit<AgentVersionRecord, "number"> {
  return {
    agent_version: agentVersion,
    agent_id: agentId,
    toolset_id: toolsetId,
    toolset_version: toolsetVersion,
    model_json: JSON.stringify({ provider: "scripted", script: [{ message: "hi" }] }),
    instructions: `Instructions of ${agentVersion}`,
    max_context_tokens: 100_000,
    max_turns: null,
    max_tool_calls: null,
    run_timeout_ms: null,
    created_at_ms: createdAtMs,
  };
}

/** A session record. */
export function sessionRecord(
  sessionId: string,
  agentId: string,
  agentVersion: string,
  createdAtMs = 3_000,
): SessionRecord {
  return {
    session_id: sessionId,
    agent_version: agentVersion,
    agent_id: agentId,
    subject: `user-${sessionId}`,
    created_at_ms: createdAtMs,
  };
}

/** Follows `next_cursor` from the first page to the end; answers every page. */
export async function allPages<T>(fetch: (cursor: string | null) => Promise<Page<T>>): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetch(cursor);
    pages.push(page);
    cursor = page.next_cursor;
    if (pages.length > 1_000) throw new Error("paging does not end");
  } while (cursor !== null);
  return pages;
}
