/**
 * The columns of `runs` and the record a row reads as: the run store's, and the call context's join
 * (calls/call-context-query.ts) reads its run with them. The output is stored as a JSON string
 * literal (`output_json`), so that any string reads back exactly as it was written.
 */

import type { RunStatus } from "@toolhost/protocol";
import type { RunsTable } from "../database-schema.js";
import type { RunRecord } from "../records.js";

/** Every column of `runs` (select these to build a RunRecord with `runFromRow`). */
export const RUN_COLUMNS = [
  "run_id",
  "session_id",
  "agent_id",
  "agent_version",
  "subject",
  "status",
  "input_json",
  "turn",
  "output_json",
  "error_json",
  "history_length",
  "created_at_ms",
  "updated_at_ms",
  "ended_at_ms",
  "max_turns",
  "max_tool_calls",
  "tool_call_count",
  "deadline_ms",
] as const satisfies readonly (keyof RunsTable)[];

/** The stored row as a record (the status column holds only run statuses: the run store writes them). */
export function runFromRow(row: Pick<RunsTable, (typeof RUN_COLUMNS)[number]>): RunRecord {
  const { output_json, ...rest } = row;
  return { ...rest, status: row.status as RunStatus, output: outputOf(output_json) };
}

/** The stored form of an output. */
export function outputJsonOf(output: string | null): string | null {
  return output === null ? null : JSON.stringify(output);
}

/** The output a stored `output_json` holds. */
function outputOf(outputJson: string | null): string | null {
  if (outputJson === null) return null;
  const output: unknown = JSON.parse(outputJson);
  if (typeof output !== "string") throw new Error("runs.output_json holds something else than a JSON string");
  return output;
}
