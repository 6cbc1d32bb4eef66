/** Executor bindings in the `bindings` table. */

import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { BindingRecord, IdScope, Page, PageRequest } from "../records.js";
import { inScope } from "../scope-condition.js";
import type { BindingStore } from "./contract.js";

const LIST = "bindings";

/** The BindingStore over Kysely (both dialects). */
export class KyselyBindingStore implements BindingStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(binding: BindingRecord): Promise<boolean> {
    return this.ctx.write(async (db) => {
      const result = await db
        .insertInto("bindings")
        .values({ binding_id: binding.binding_id, name: binding.name, created_at_ms: binding.created_at_ms })
        .onConflict((conflict) => conflict.column("binding_id").doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    });
  }

  async get(bindingId: string, scope: IdScope): Promise<BindingRecord | undefined> {
    return this.ctx.read((db) =>
      db
        .selectFrom("bindings")
        .select(["binding_id", "name", "created_at_ms"])
        .where("binding_id", "=", bindingId)
        .where(inScope("binding_id", scope))
        .executeTakeFirst(),
    );
  }

  async list(page: PageRequest, scope: IdScope): Promise<Page<BindingRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("bindings")
        .select(["binding_id", "name", "created_at_ms"])
        .where(inScope("binding_id", scope))
        .orderBy("created_at_ms")
        .orderBy("binding_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "binding_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.binding_id }),
      );
    });
  }

  async existing(bindingIds: readonly string[], scope: IdScope): Promise<Set<string>> {
    const wanted = [...new Set(bindingIds)];
    if (wanted.length === 0) return Promise.resolve(new Set());
    return this.ctx.read(async (db) => {
      const rows = await db
        .selectFrom("bindings")
        .select("binding_id")
        .where("binding_id", "in", wanted)
        .where(inScope("binding_id", scope))
        .execute();
      return new Set(rows.map((row) => row.binding_id));
    });
  }
}
