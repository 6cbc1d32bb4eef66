/**
 * Server secrets in `server_secrets`, shared by every instance on one database. A secret is created
 * once: insert-if-absent, then read back, so instances racing to create it all end up with the one
 * that was stored first.
 */

import type { StoreContext } from "../engine/store-context.js";
import type { SecretStore } from "./contract.js";

/** The SecretStore over Kysely (both dialects). */
export class KyselySecretStore implements SecretStore {
  constructor(private readonly ctx: StoreContext) {}

  async getOrCreate(name: string, candidate: string, nowMs: number): Promise<string> {
    const stored = await this.read(name);
    if (stored !== undefined) return stored;
    await this.ctx.write((db) =>
      db
        .insertInto("server_secrets")
        .values({ name, value: candidate, created_at_ms: nowMs })
        .onConflict((conflict) => conflict.column("name").doNothing())
        .execute(),
    );
    const winner = await this.read(name);
    if (winner === undefined) throw new Error(`server secret ${name} vanished right after it was stored`);
    return winner;
  }

  private read(name: string): Promise<string | undefined> {
    return this.ctx.read(async (db) => {
      const row = await db.selectFrom("server_secrets").select("value").where("name", "=", name).executeTakeFirst();
      return row?.value;
    });
  }
}
