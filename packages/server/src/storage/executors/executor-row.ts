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
  const { tool_names_json } = row;
  return {
    executor_id: row.executor_id,
    connection_id: row.connection_id,
    epoch: row.epoch,
    binding_ids: stringList(row.binding_ids_json, row.executor_id, "binding IDs"),
    key_id: row.key_id,
    online: row.online === 1,
    connected_at_ms: row.connected_at_ms,
    last_heartbeat_ms: row.last_heartbeat_ms,
    lease_expires_ms: row.lease_expires_ms,
    disconnected_at_ms: row.disconnected_at_ms,
    tool_names: tool_names_json === null ? null : stringList(tool_names_json, row.executor_id, "tool names"),
  };
}

/**
 * The lists parsed last, by their stored text: an executor's row is read on every poll and receipt
 * with the same two lists. Bounded: at most 256 texts of at most 4,096 characters (2 MiB at two bytes
 * a character); each answer is a fresh copy, so no caller shares an array.
 */
const parsedLists = new Map<string, readonly string[]>();
const PARSED_LISTS_MAX = 256;
const PARSED_LIST_MAX_CHARACTERS = 4096;

/** How many parsed lists are kept now (tests check the bound). */
export function parsedListsKept(): number {
  return parsedLists.size;
}

/** A stored JSON array of strings. */
function stringList(json: string, executorId: string, what: string): string[] {
  const known = parsedLists.get(json);
  if (known !== undefined) return known.slice();
  const list: unknown = JSON.parse(json);
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) {
    throw new Error(`stored executor ${executorId} has malformed ${what}`);
  }
  if (json.length <= PARSED_LIST_MAX_CHARACTERS) {
    if (parsedLists.size >= PARSED_LISTS_MAX) parsedLists.clear();
    parsedLists.set(json, list.slice());
  }
  return list;
}
