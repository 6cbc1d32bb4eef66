/** Model requests on record (`model_requests`), listed per run in creation order. */

import type { Insertable } from "kysely";
import type { ModelRequestsTable } from "../database-schema.js";
import { definedColumns, ShapedReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { ModelRequestPurpose, ModelRequestRecord, Page, PageRequest } from "../records.js";
import type { ModelRequestStore } from "./contract.js";

const LIST = "model-requests";

/** Every column of `model_requests`, in the table's order (its rows never change). */
export const MODEL_REQUEST_COLUMNS = [
  "request_id",
  "run_id",
  "turn",
  "purpose",
  "provider",
  "model",
  "request_bytes",
  "estimated_input_tokens",
  "actual_input_tokens",
  "output_tokens",
  "compacted",
  "latency_ms",
  "error_json",
  "created_at_ms",
] as const satisfies readonly (keyof ModelRequestsTable)[];

// A column added to the table but not to the list fails to compile here.
const everyColumn: Exclude<keyof ModelRequestsTable, (typeof MODEL_REQUEST_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everyColumn;

/** Every turn records its request: compiled once per form of the columns it defines (reusable-query.ts). */
const INSERT = new ShapedReusableQuery(8, (db, columns: readonly (keyof ModelRequestsTable)[], values) =>
  // The values are a record's own columns (definedColumns), so the cast restates their types.
  db
    .insertInto("model_requests")
    .values(Object.fromEntries(columns.map((column, i) => [column, values[i]])) as Insertable<ModelRequestsTable>),
);

/** The record of a stored row. */
export function modelRequestFromRow(row: ModelRequestsTable): ModelRequestRecord {
  return { ...row, purpose: row.purpose as ModelRequestPurpose, compacted: row.compacted === 1 };
}

/** The ModelRequestStore over Kysely (both dialects). */
export class KyselyModelRequestStore implements ModelRequestStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(request: ModelRequestRecord): Promise<void> {
    const { names, values } = definedColumns(
      { ...request, compacted: request.compacted ? 1 : 0 },
      MODEL_REQUEST_COLUMNS,
    );
    // Nothing is read back: inside a PostgreSQL transaction it goes out with the next statement.
    await this.ctx.write((db) => INSERT.send(this.ctx.dialect, db, names, values));
  }

  async listByRun(runId: string, page: PageRequest): Promise<Page<ModelRequestRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("model_requests")
        .selectAll()
        .where("run_id", "=", runId)
        .orderBy("created_at_ms")
        .orderBy("request_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "request_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows.map(modelRequestFromRow), page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.request_id }),
      );
    });
  }
}
