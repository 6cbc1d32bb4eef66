/** Model requests on record (`model_requests`), listed per run in creation order. */

import type { ModelRequestsTable } from "../database-schema.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { ModelRequestPurpose, ModelRequestRecord, Page, PageRequest } from "../records.js";
import type { ModelRequestStore } from "./contract.js";

const LIST = "model-requests";

/** The record of a stored row. */
export function modelRequestFromRow(row: ModelRequestsTable): ModelRequestRecord {
  return { ...row, purpose: row.purpose as ModelRequestPurpose, compacted: row.compacted === 1 };
}

/** The ModelRequestStore over Kysely (both dialects). */
export class KyselyModelRequestStore implements ModelRequestStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(request: ModelRequestRecord): Promise<void> {
    await this.ctx.write((db) =>
      db
        .insertInto("model_requests")
        .values({ ...request, compacted: request.compacted ? 1 : 0 })
        .execute(),
    );
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
