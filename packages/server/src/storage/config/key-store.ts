/**
 * API keys in the `keys` table; scopes and agent/binding/connection scopes are stored as JSON text. Lists and
 * revocations take the caller's reach and filter in the SQL (`idScopeJsonWithin`), so a page holds
 * `limit` keys within reach whenever that many follow the cursor.
 */

import type { Selectable } from "kysely";
import type { KeysTable } from "../database-schema.js";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { StoreContext } from "../engine/store-context.js";
import { decodeCreatedCursor, encodeCreatedCursor, pageOf } from "../page-cursor.js";
import type { IdScope, IdScopes, KeyRecord, Page, PageRequest, Scope } from "../records.js";
import { idScopeJsonWithin } from "../scope-condition.js";
import type { KeyStore } from "./contract.js";

const LIST = "keys";

// Every authenticated request runs this lookup (keys are never cached, so a revocation counts at once).
const FIND_ACTIVE = new ReusableQuery((db, keyHash: string) =>
  db.selectFrom("keys").selectAll().where("key_hash", "=", keyHash).where("revoked_at_ms", "is", null),
);

/** The KeyStore over Kysely (both dialects). */
export class KyselyKeyStore implements KeyStore {
  constructor(private readonly ctx: StoreContext) {}

  async insert(key: KeyRecord): Promise<void> {
    return this.ctx.write(async (db) => {
      await db.insertInto("keys").values(toRow(key)).execute();
    });
  }

  async ensure(key: KeyRecord): Promise<boolean> {
    return this.ctx.write(async (db) => {
      const result = await db
        .insertInto("keys")
        .values(toRow(key))
        .onConflict((conflict) => conflict.column("key_hash").doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    });
  }

  async findActiveByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const row = await this.ctx.read((db) => FIND_ACTIVE.takeFirst(this.ctx.dialect, db, keyHash));
    return row === undefined ? undefined : fromRow(row);
  }

  async get(keyId: string): Promise<KeyRecord | undefined> {
    return this.ctx.read(async (db) => {
      const row = await db.selectFrom("keys").selectAll().where("key_id", "=", keyId).executeTakeFirst();
      return row === undefined ? undefined : fromRow(row);
    });
  }

  async list(page: PageRequest, reach: IdScopes): Promise<Page<KeyRecord>> {
    const after = decodeCreatedCursor(LIST, page.cursor);
    return this.ctx.read(async (db) => {
      let query = db
        .selectFrom("keys")
        .selectAll()
        .where(idScopeJsonWithin(this.ctx.dialect, "agents_json", reach.agents))
        .where(idScopeJsonWithin(this.ctx.dialect, "bindings_json", reach.bindings))
        .where(idScopeJsonWithin(this.ctx.dialect, "connections_json", reach.connections))
        .orderBy("created_at_ms")
        .orderBy("key_id")
        .limit(page.limit + 1);
      if (after !== undefined) {
        query = query.where((eb) => eb(eb.refTuple("created_at_ms", "key_id"), ">", eb.tuple(after.at, after.id)));
      }
      const rows = (await query.execute()).map(fromRow);
      return pageOf(rows, page.limit, (last) => encodeCreatedCursor(LIST, { at: last.created_at_ms, id: last.key_id }));
    });
  }

  async revoke(keyId: string, atMs: number, reach: IdScopes): Promise<KeyRecord | undefined> {
    return this.ctx.write(async (db) => {
      const row = await db
        .updateTable("keys")
        .set((eb) => ({ revoked_at_ms: eb.fn.coalesce("revoked_at_ms", eb.val(atMs)) }))
        .where("key_id", "=", keyId)
        .where(idScopeJsonWithin(this.ctx.dialect, "agents_json", reach.agents))
        .where(idScopeJsonWithin(this.ctx.dialect, "bindings_json", reach.bindings))
        .where(idScopeJsonWithin(this.ctx.dialect, "connections_json", reach.connections))
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : fromRow(row);
    });
  }
}

function toRow(key: KeyRecord): KeysTable {
  return {
    key_id: key.key_id,
    name: key.name,
    key_hash: key.key_hash,
    scopes_json: JSON.stringify(key.scopes),
    agents_json: JSON.stringify(key.agents),
    bindings_json: JSON.stringify(key.bindings),
    connections_json: JSON.stringify(key.connections),
    created_at_ms: key.created_at_ms,
    revoked_at_ms: key.revoked_at_ms,
  };
}

function fromRow(row: Selectable<KeysTable>): KeyRecord {
  return {
    key_id: row.key_id,
    name: row.name,
    key_hash: row.key_hash,
    scopes: parseStringList(row.scopes_json, row.key_id) as Scope[],
    agents: parseIdScope(row.agents_json, row.key_id),
    bindings: parseIdScope(row.bindings_json, row.key_id),
    connections: parseIdScope(row.connections_json, row.key_id),
    created_at_ms: row.created_at_ms,
    revoked_at_ms: row.revoked_at_ms,
  };
}

function parseIdScope(text: string, keyId: string): IdScope {
  return text === '"*"' ? "*" : parseStringList(text, keyId);
}

function parseStringList(text: string, keyId: string): string[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new Error(`stored key ${keyId} holds a malformed list: ${text}`);
  }
  return value;
}
