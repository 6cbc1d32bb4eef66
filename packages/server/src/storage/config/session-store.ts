/** Sessions in the `sessions` table; scope conditions apply to the session's agent. */

import { ReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import { pickColumns } from "../pick-columns.js";
import type { IdScope, Page, PageRequest, SessionRecord } from "../records.js";
import { inScope } from "../scope-condition.js";
import type { SessionStore } from "./contract.js";

const LIST = "sessions";
const COLUMNS = ["session_id", "agent_version", "agent_id", "subject", "created_at_ms"] as const;

// Every run creation loads its session: the unscoped lookup is compiled once (reusable-query.ts).
const GET_ANY = new ReusableQuery((db, sessionId: string) =>
  db.selectFrom("sessions").select(COLUMNS).where("session_id", "=", sessionId).where(inScope("agent_id", "*")),
);

/** The SessionStore over Kysely (both dialects). */
export class KyselySessionStore implements SessionStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(session: SessionRecord): Promise<void> {
    return this.ctx.write(async (db) => {
      await db.insertInto("sessions").values(pickColumns(session, COLUMNS)).execute();
    });
  }

  async get(sessionId: string, scope: IdScope): Promise<SessionRecord | undefined> {
    // Sessions never change: read once (immutable-row-cache.ts).
    return this.ctx.immutableRows.readInAgentScope("session", sessionId, scope, () =>
      this.ctx.read((db) => GET_ANY.takeFirst(this.ctx.dialect, db, sessionId)),
    );
  }

  async list(page: PageRequest, scope: IdScope): Promise<Page<SessionRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("sessions")
        .select(COLUMNS)
        .where(inScope("agent_id", scope))
        .orderBy("created_at_ms")
        .orderBy("session_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "session_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = await query.execute();
      return pageOf(rows, page.limit, (last) =>
        encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.session_id }),
      );
    });
  }
}
