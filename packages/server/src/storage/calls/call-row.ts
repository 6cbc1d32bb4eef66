/**
 * A `tool_calls` row as a CallRecord: the record is the row's type, but the status and effect a
 * database hands back are checked, since the table cannot constrain them.
 */

import { isCallStatus, isToolEffect } from "@toolhost/protocol";
import type { Selectable } from "kysely";
import type { ToolCallsTable } from "../database-schema.js";
import type { CallRecord } from "../records.js";

/** Every column of `tool_calls`, in table order (select these, or all, to build a CallRecord). */
export const CALL_COLUMNS = [
  "call_id",
  "run_id",
  "turn",
  "position",
  "tool_name",
  "binding_id",
  "effect",
  "max_result_context_bytes",
  "arguments_json",
  "arguments_digest",
  "status",
  "executor_id",
  "claim_id",
  "grant_hash",
  "claimed_at_ms",
  "accept_deadline_ms",
  "accepted_at_ms",
  "settled_at_ms",
  "deadline_ms",
  "cancel_requested_at_ms",
  "compensates",
  "created_at_ms",
  "updated_at_ms",
  "trace_context",
] as const satisfies readonly (keyof ToolCallsTable)[];

// A column added to the table but not to the list fails to compile here.
const everyCallColumn: Exclude<keyof ToolCallsTable, (typeof CALL_COLUMNS)[number]> extends never ? true : never = true;
void everyCallColumn;

/** The CallRecord of a stored row; a status or effect the protocol does not know is a corrupt row (throws). */
export function callFromRow(row: Selectable<ToolCallsTable>): CallRecord {
  const { status, effect } = row as { status: string; effect: string };
  if (!isCallStatus(status))
    throw new Error(`stored call ${row.call_id} has an unknown status ${JSON.stringify(status)}`);
  if (!isToolEffect(effect))
    throw new Error(`stored call ${row.call_id} has an unknown effect ${JSON.stringify(effect)}`);
  return row;
}
