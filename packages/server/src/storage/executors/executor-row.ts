/**
 * The columns of `executors` and the record a row reads as: the executor store's, and the call
 * context's join (calls/call-context-query.ts) reads its executor with them.
 */

import type { Selectable } from "kysely";
import type { ExecutorsTable } from "../database-schema.js";
import type { ExecutorRecord } from "../records.js";

/** The columns of an executor record. */
export const EXECUTOR_COLUMNS = [
  "executor_id",
  "connection_id",
  "epoch",
  "binding_ids_json",
  "key_id",
  "online",
  "connected_at_ms",
  "last_heartbeat_ms",
  "lease_expires_ms",
  "disconnected_at_ms",
  "tool_names_json",
] as const satisfies readonly (keyof ExecutorsTable)[];

/** The record of a stored row. */
export function executorFromRow(row: Selectable<ExecutorsTable>): ExecutorRecord {
  const { binding_ids_json, tool_names_json, online, ...rest } = row;
  const bindingIds = stringList(binding_ids_json, row.executor_id, "binding IDs");
  const toolNames = tool_names_json === null ? null : stringList(tool_names_json, row.executor_id, "tool names");
  return { ...rest, binding_ids: bindingIds, online: online === 1, tool_names: toolNames };
}

/** A stored JSON array of strings. */
function stringList(json: string, executorId: string, what: string): string[] {
  const list: unknown = JSON.parse(json);
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) {
    throw new Error(`stored executor ${executorId} has malformed ${what}`);
  }
  return list;
}
