/**
 * 0012_key_connections: a key's model connection scope (`connections` of `POST /v1/keys`), the
 * operator's model connections its agent versions may name (docs/configuration.md#model-connections).
 * One column on `keys`, JSON text like `agents_json`. Keys from before this migration get `"*"`: they
 * could name any environment variable and any URL before, and every connection is now one the operator
 * declared; narrow them by creating new keys with a `connections` list and revoking the old ones
 * (docs/operations.md#upgrading). Additive; the same on both dialects.
 */

import { type Kysely, type Migration, sql } from "kysely";

/** The 0012_key_connections migration. */
export const keyConnectionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable("keys")
      .addColumn("connections_json", "text", (column) => column.notNull().defaultTo(sql`'"*"'`))
      .execute();
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("keys").dropColumn("connections_json").execute();
  },
};
