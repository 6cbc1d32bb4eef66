/**
 * Executor connections in the `executors` table: one row per stable executor ID holding its current
 * connection, epoch, lease and the API key that opened it (`key_id`, the executor's owner). Every
 * change a request makes is one conditional statement on (executor_id, connection_id, key_id,
 * online), so a superseded connection never changes the current one and another key changes nothing.
 */

import { type SqlBool, sql } from "kysely";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeIdCursor, encodeIdCursor } from "../page-cursor.js";
import type { ExecutorRecord, IdScope, Page, PageRequest } from "../records.js";
import type { ExecutorConnectInput, ExecutorStore, OwnedConnection } from "./contract.js";
import { EXECUTOR_COLUMNS, executorFromRow } from "./executor-row.js";

const LIST = "executors";

// Every pending poll and claim loads its executor: compiled once (reusable-query.ts).
const GET = new ReusableQuery((db, executorId: string) =>
  db.selectFrom("executors").select(EXECUTOR_COLUMNS).where("executor_id", "=", executorId),
);

/** `text` as a LIKE pattern matching itself literally (escape character `\`). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The ExecutorStore over Kysely (both dialects). */
export class KyselyExecutorStore implements ExecutorStore {
  constructor(private readonly ctx: StoreContext) {}

  async connect(input: ExecutorConnectInput): Promise<ExecutorRecord> {
    const values = {
      executor_id: input.executor_id,
      connection_id: input.connection_id,
      epoch: 1,
      binding_ids_json: JSON.stringify(input.binding_ids),
      key_id: input.key_id,
      online: 1,
      connected_at_ms: input.now_ms,
      last_heartbeat_ms: input.now_ms,
      lease_expires_ms: input.lease_expires_ms,
      disconnected_at_ms: null,
      tool_names_json: input.tool_names == null ? null : JSON.stringify(input.tool_names),
    };
    return this.ctx.write(async (db) => {
      const row = await db
        .insertInto("executors")
        .values(values)
        .onConflict((conflict) =>
          conflict.column("executor_id").doUpdateSet((eb) => ({
            connection_id: values.connection_id,
            // One statement: concurrent reconnects each get their own epoch, the last one wins.
            epoch: eb("executors.epoch", "+", 1),
            binding_ids_json: values.binding_ids_json,
            key_id: values.key_id,
            online: 1,
            connected_at_ms: values.connected_at_ms,
            last_heartbeat_ms: values.last_heartbeat_ms,
            lease_expires_ms: values.lease_expires_ms,
            disconnected_at_ms: null,
            // Each connection declares its own tools: a reconnect without them clears the old list.
            tool_names_json: values.tool_names_json,
          })),
        )
        .returning(EXECUTOR_COLUMNS)
        .executeTakeFirstOrThrow();
      return executorFromRow(row);
    });
  }

  async get(executorId: string): Promise<ExecutorRecord | undefined> {
    const row = await this.ctx.read((db) => GET.takeFirst(this.ctx.dialect, db, executorId));
    return row === undefined ? undefined : executorFromRow(row);
  }

  async heartbeat(connection: OwnedConnection, nowMs: number, leaseExpiresMs: number): Promise<boolean> {
    return this.ctx.write(async (db) => {
      const result = await db
        .updateTable("executors")
        .set({ last_heartbeat_ms: nowMs, lease_expires_ms: leaseExpiresMs })
        .where("executor_id", "=", connection.executor_id)
        .where("connection_id", "=", connection.connection_id)
        .where("key_id", "=", connection.key_id)
        .where("online", "=", 1)
        .where("lease_expires_ms", ">", nowMs)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  async disconnect(connection: OwnedConnection, nowMs: number): Promise<boolean> {
    return this.ctx.write(async (db) => {
      const result = await db
        .updateTable("executors")
        .set({ online: 0, disconnected_at_ms: nowMs })
        .where("executor_id", "=", connection.executor_id)
        .where("connection_id", "=", connection.connection_id)
        .where("key_id", "=", connection.key_id)
        .where("online", "=", 1)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  async list(page: PageRequest, scope: IdScope): Promise<Page<ExecutorRecord>> {
    // The binding scope is a membership test on a JSON array: rows are read in ID order, in batches,
    // and those with a binding outside the scope are left out until the page is full.
    let after = decodeIdCursor(LIST, page.cursor);
    const items: ExecutorRecord[] = [];
    const batch = page.limit + 1;
    for (;;) {
      const from = after;
      const rows = await this.ctx.read((db) => {
        let query = db.selectFrom("executors").select(EXECUTOR_COLUMNS).orderBy("executor_id").limit(batch);
        if (from !== undefined) query = query.where("executor_id", ">", from);
        return query.execute();
      });
      for (const row of rows) {
        const executor = executorFromRow(row);
        if (scope !== "*" && !executor.binding_ids.every((id) => scope.includes(id))) continue;
        if (items.length === page.limit) {
          const last = items[items.length - 1] as ExecutorRecord;
          return { items, next_cursor: encodeIdCursor(LIST, last.executor_id) };
        }
        items.push(executor);
      }
      if (rows.length < batch) return { items, next_cursor: null };
      after = rows[rows.length - 1]?.executor_id;
    }
  }

  async listByBinding(bindingId: string): Promise<ExecutorRecord[]> {
    // The JSON array holds `"<id>"` verbatim for every ID (IDs need no JSON escapes); LIKE narrows the
    // rows in SQL, the exact membership test below removes SQLite's case-insensitive LIKE matches.
    const pattern = `%${likeLiteral(JSON.stringify(bindingId))}%`;
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("executors")
        .select(EXECUTOR_COLUMNS)
        .where(sql<SqlBool>`binding_ids_json like ${pattern} escape '\\'`)
        .execute(),
    );
    return rows
      .map(executorFromRow)
      .filter((executor) => executor.binding_ids.includes(bindingId))
      .sort((a, b) => b.last_heartbeat_ms - a.last_heartbeat_ms || (a.executor_id < b.executor_id ? -1 : 1));
  }

  async listLapsed(nowMs: number, limit: number): Promise<ExecutorRecord[]> {
    const rows = await this.ctx.read((db) =>
      db
        .selectFrom("executors")
        .select(EXECUTOR_COLUMNS)
        // A literal 1: the partial index `executors_online_by_lease` holds the online connections only.
        .where("online", "=", sql.lit(1))
        .where("lease_expires_ms", "<=", nowMs)
        .orderBy("lease_expires_ms")
        .orderBy("executor_id")
        .limit(limit)
        .execute(),
    );
    return rows.map(executorFromRow);
  }

  async expireLease(executorId: string, connectionId: string, nowMs: number): Promise<boolean> {
    return this.ctx.write(async (db) => {
      const result = await db
        .updateTable("executors")
        .set({ online: 0, disconnected_at_ms: nowMs })
        .where("executor_id", "=", executorId)
        .where("connection_id", "=", connectionId)
        .where("online", "=", 1)
        .where("lease_expires_ms", "<=", nowMs)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }
}
