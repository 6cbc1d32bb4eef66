/** Agents (`agents`) and their immutable versions (`agent_versions`). */

import { ReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import {
  decodeCreatedCursor,
  decodeNumberCursor,
  encodeCreatedCursor,
  encodeNumberCursor,
  pageOf,
} from "../page-cursor.js";
import { pickColumns } from "../pick-columns.js";
import type { AgentRecord, AgentVersionRecord, IdScope, Page, PageRequest } from "../records.js";
import { inScope } from "../scope-condition.js";
import type { AgentStore } from "./contract.js";
import { toolsReferenceBinding } from "./tools-json.js";

const LIST = "agents";
const VERSION_LIST = "agent_versions";
const AGENT_COLUMNS = ["agent_id", "name", "created_at_ms"] as const;
const VERSION_COLUMNS = [
  "agent_version",
  "agent_id",
  "number",
  "toolset_id",
  "toolset_version",
  "model_json",
  "instructions",
  "max_context_tokens",
  "max_turns",
  "max_tool_calls",
  "run_timeout_ms",
  "created_at_ms",
] as const;

// Every model turn loads its agent version: the unscoped lookup is compiled once (reusable-query.ts).
const GET_VERSION_ANY = new ReusableQuery((db, agentVersion: string) =>
  db
    .selectFrom("agent_versions")
    .select(VERSION_COLUMNS)
    .where("agent_version", "=", agentVersion)
    .where(inScope("agent_id", "*")),
);

/** The AgentStore over Kysely (both dialects). */
export class KyselyAgentStore implements AgentStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(agent: AgentRecord): Promise<void> {
    return this.ctx.write(async (db) => {
      await db
        .insertInto("agents")
        .values({ ...pickColumns(agent, AGENT_COLUMNS), latest_version_number: 0 })
        .execute();
    });
  }

  async get(agentId: string, scope: IdScope): Promise<AgentRecord | undefined> {
    return this.ctx.read((db) =>
      db
        .selectFrom("agents")
        .select(AGENT_COLUMNS)
        .where("agent_id", "=", agentId)
        .where(inScope("agent_id", scope))
        .executeTakeFirst(),
    );
  }

  async list(page: PageRequest, scope: IdScope): Promise<Page<AgentRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("agents")
        .select(AGENT_COLUMNS)
        .where(inScope("agent_id", scope))
        .orderBy("created_at_ms")
        .orderBy("agent_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "agent_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.agent_id }),
      );
    });
  }

  async appendVersion(version: Omit<AgentVersionRecord, "number">): Promise<AgentVersionRecord | undefined> {
    return this.ctx.atomic(async (db) => {
      // The increment takes the agent's row lock (PostgreSQL) or runs under the write lock (SQLite),
      // so concurrent appends get distinct, consecutive numbers.
      const bumped = await db
        .updateTable("agents")
        .set((eb) => ({ latest_version_number: eb("latest_version_number", "+", 1) }))
        .where("agent_id", "=", version.agent_id)
        .returning("latest_version_number")
        .executeTakeFirst();
      if (bumped === undefined) return undefined;
      const record: AgentVersionRecord = { ...version, number: bumped.latest_version_number };
      await db.insertInto("agent_versions").values(pickColumns(record, VERSION_COLUMNS)).execute();
      return pickColumns(record, VERSION_COLUMNS);
    });
  }

  async getVersion(agentVersion: string, scope: IdScope): Promise<AgentVersionRecord | undefined> {
    // Versions never change: read once (immutable-row-cache.ts).
    return this.ctx.immutableRows.readInAgentScope("agent_version", agentVersion, scope, () =>
      this.ctx.read((db) => GET_VERSION_ANY.takeFirst(this.ctx.dialect, db, agentVersion)),
    );
  }

  async listVersions(agentId: string, page: PageRequest): Promise<Page<AgentVersionRecord>> {
    const after = decodeNumberCursor(VERSION_LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("agent_versions")
        .select(VERSION_COLUMNS)
        .where("agent_id", "=", agentId)
        .orderBy("number")
        .limit(page.limit + 1);
      if (after !== undefined) query = query.where("number", ">", after);
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) => encodeNumberCursor(VERSION_LIST, last.number));
    });
  }

  async versionsReferencingBinding(agentId: string, bindingId: string): Promise<AgentVersionRecord[]> {
    return this.ctx.read(async (db) => {
      const rows = await db
        .selectFrom("agent_versions as av")
        .innerJoin("toolset_versions as tv", (join) =>
          join.onRef("tv.toolset_id", "=", "av.toolset_id").onRef("tv.version", "=", "av.toolset_version"),
        )
        .select(VERSION_COLUMNS.map((column) => `av.${column}` as const))
        .select("tv.tools_json")
        .where("av.agent_id", "=", agentId)
        .orderBy("av.number")
        .execute();
      // Several agent versions often pin the same toolset version: decide once per tools text.
      const decided = new Map<string, boolean>();
      const out: AgentVersionRecord[] = [];
      for (const { tools_json, ...version } of rows) {
        let references = decided.get(tools_json);
        if (references === undefined) {
          references = toolsReferenceBinding(tools_json, bindingId);
          decided.set(tools_json, references);
        }
        if (references) out.push(version);
      }
      return out;
    });
  }
}
