/** Toolsets (`toolsets`) and their immutable numbered versions (`toolset_versions`). */

import {
  decodeCreatedCursor,
  decodeNumberCursor,
  encodeCreatedCursor,
  encodeNumberCursor,
  pageOf,
} from "../page-cursor.js";
import type { Page, PageRequest, ToolsetRecord, ToolsetVersionRecord } from "../records.js";
import { ReusableQuery } from "../reusable-query.js";
import type { ToolsetStore } from "../storage.js";
import type { StoreContext } from "../store-context.js";
import { pickColumns } from "./pick-columns.js";

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
    });
  }

  async appendVersion(toolsetId: string, toolsJson: string, atMs: number): Promise<ToolsetVersionRecord | undefined> {
    return this.ctx.atomic(async (db) => {
      // The increment takes the toolset's row lock (PostgreSQL) or runs under the write lock (SQLite),
      // so concurrent appends get distinct, consecutive numbers.
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
      return record;
    });
  }

  async get(toolsetId: string): Promise<ToolsetRecord | undefined> {
    return this.ctx.read((db) =>
      db.selectFrom("toolsets").select(TOOLSET_COLUMNS).where("toolset_id", "=", toolsetId).executeTakeFirst(),
    );
  }

  async list(page: PageRequest): Promise<Page<ToolsetRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("toolsets")
        .select(TOOLSET_COLUMNS)
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
