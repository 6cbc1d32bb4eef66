/**
 * Toolsets (`toolsets`), their immutable numbered versions (`toolset_versions`) and the bindings
 * those reference (`toolset_bindings`, written with each version). Reads by ID and lists filter by
 * binding scope in the SQL (`toolsetBindingsInScope`).
 */

import { ReusableQuery } from "../engine/reusable-query.js";
import type { Db, StoreContext } from "../engine/store-context.js";
import {
  decodeCreatedCursor,
  decodeNumberCursor,
  encodeCreatedCursor,
  encodeNumberCursor,
  pageOf,
} from "../page-cursor.js";
import { pickColumns } from "../pick-columns.js";
import type { IdScope, Page, PageRequest, ToolsetRecord, ToolsetVersionRecord } from "../records.js";
import { inScope, toolsetBindingsInScope } from "../scope-condition.js";
import type { ToolsetStore } from "./contract.js";
import { bindingIdsOfTools } from "./tools-json.js";

const LIST = "toolsets";
const VERSION_LIST = "toolset_versions";
const TOOLSET_COLUMNS = ["toolset_id", "name", "latest_version", "created_at_ms"] as const;
const VERSION_COLUMNS = ["toolset_id", "version", "tools_json", "created_at_ms"] as const;

// Every model turn loads its toolset version: compiled once (reusable-query.ts).
const GET_VERSION = new ReusableQuery((db, toolsetId: string, version: number) =>
  db
    .selectFrom("toolset_versions")
    .select(VERSION_COLUMNS)
    .where("toolset_id", "=", toolsetId)
    .where("version", "=", version),
);

// Appends take the toolset's row lock before reading its bindings (PostgreSQL; SQLite writes run one at a time).
const LOCK_TOOLSET = new ReusableQuery((db, toolsetId: string) =>
  db.selectFrom("toolsets").select("toolset_id").where("toolset_id", "=", toolsetId).forUpdate(),
);
const FIND_TOOLSET = new ReusableQuery((db, toolsetId: string) =>
  db.selectFrom("toolsets").select("toolset_id").where("toolset_id", "=", toolsetId),
);

/** Records that `toolsetId` references `bindingIds` (rows already there are kept). */
async function addBindings(db: Db, toolsetId: string, bindingIds: readonly string[]): Promise<void> {
  if (bindingIds.length === 0) return;
  await db
    .insertInto("toolset_bindings")
    .values(bindingIds.map((binding_id) => ({ toolset_id: toolsetId, binding_id })))
    .onConflict((conflict) => conflict.columns(["toolset_id", "binding_id"]).doNothing())
    .execute();
}

/** The ToolsetStore over Kysely (both dialects). */
export class KyselyToolsetStore implements ToolsetStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(toolset: ToolsetRecord, first: ToolsetVersionRecord): Promise<void> {
    if (first.toolset_id !== toolset.toolset_id || first.version !== toolset.latest_version) {
      return Promise.reject(
        new Error("toolset insert: the first version must belong to the toolset and be its latest"),
      );
    }
    return this.ctx.atomic(async (db) => {
      await db.insertInto("toolsets").values(pickColumns(toolset, TOOLSET_COLUMNS)).execute();
      await db.insertInto("toolset_versions").values(pickColumns(first, VERSION_COLUMNS)).execute();
      await addBindings(db, toolset.toolset_id, bindingIdsOfTools(first.tools_json));
    });
  }

  async appendVersion(
    toolsetId: string,
    toolsJson: string,
    atMs: number,
    scope: IdScope,
  ): Promise<ToolsetVersionRecord | undefined> {
    const bindingIds = bindingIdsOfTools(toolsJson);
    if (scope !== "*" && !bindingIds.every((id) => scope.includes(id))) return undefined;
    const dialect = this.ctx.dialect;
    return this.ctx.atomic(async (db) => {
      // The lock comes first, so the bindings read next include those of every append committed
      // before this one: a concurrent append cannot slip a binding beyond `scope` past the check.
      const lock = dialect === "postgres" ? LOCK_TOOLSET : FIND_TOOLSET;
      if ((await lock.takeFirst(dialect, db, toolsetId)) === undefined) return undefined;
      if (scope !== "*") {
        const beyond = await db
          .selectFrom("toolset_bindings")
          .select("binding_id")
          .where("toolset_id", "=", toolsetId)
          .where((eb) => eb.not(inScope("binding_id", scope)))
          .limit(1)
          .executeTakeFirst();
        if (beyond !== undefined) return undefined;
      }
      // The increment runs under the row lock (PostgreSQL) or the write lock (SQLite), so
      // concurrent appends get distinct, consecutive numbers.
      const bumped = await db
        .updateTable("toolsets")
        .set((eb) => ({ latest_version: eb("latest_version", "+", 1) }))
        .where("toolset_id", "=", toolsetId)
        .returning("latest_version")
        .executeTakeFirst();
      if (bumped === undefined) return undefined;
      const record: ToolsetVersionRecord = {
        toolset_id: toolsetId,
        version: bumped.latest_version,
        tools_json: toolsJson,
        created_at_ms: atMs,
      };
      await db.insertInto("toolset_versions").values(record).execute();
      await addBindings(db, toolsetId, bindingIds);
      return record;
    });
  }

  async get(toolsetId: string, scope: IdScope): Promise<ToolsetRecord | undefined> {
    return this.ctx.read((db) =>
      db
        .selectFrom("toolsets")
        .select(TOOLSET_COLUMNS)
        .where("toolset_id", "=", toolsetId)
        .where(toolsetBindingsInScope("toolsets.toolset_id", scope))
        .executeTakeFirst(),
    );
  }

  async list(page: PageRequest, scope: IdScope): Promise<Page<ToolsetRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("toolsets")
        .select(TOOLSET_COLUMNS)
        .where(toolsetBindingsInScope("toolsets.toolset_id", scope))
        .orderBy("created_at_ms")
        .orderBy("toolset_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "toolset_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.toolset_id }),
      );
    });
  }

  async getVersion(toolsetId: string, version: number): Promise<ToolsetVersionRecord | undefined> {
    // Versions never change: read once (immutable-row-cache.ts).
    return this.ctx.immutableRows.read("toolset_version", `${toolsetId}\u0000${version}`, () =>
      this.ctx.read((db) => GET_VERSION.takeFirst(this.ctx.dialect, db, toolsetId, version)),
    );
  }

  async listVersions(toolsetId: string, page: PageRequest): Promise<Page<ToolsetVersionRecord>> {
    const after = decodeNumberCursor(VERSION_LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("toolset_versions")
        .select(VERSION_COLUMNS)
        .where("toolset_id", "=", toolsetId)
        .orderBy("version")
        .limit(page.limit + 1);
      if (after !== undefined) query = query.where("version", ">", after);
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) => encodeNumberCursor(VERSION_LIST, last.version));
    });
  }
}
