/**
 * The queue of runs waiting for a model request (`model_turns`). Every change is one conditional
 * statement whose WHERE holds the lease it expects, so instances racing for a run (or an instance
 * whose lease lapsed while its request was slow) never both drive it.
 */

import type { StoreContext } from "../engine/store-context.js";
import type { ModelTurnRecord } from "../records.js";
import type { ModelTurnStore } from "./contract.js";

const COLUMNS = ["run_id", "turn", "owner", "lease_expires_ms", "attempts", "created_at_ms", "updated_at_ms"] as const;

/** The ModelTurnStore over Kysely (both dialects). */
export class KyselyModelTurnStore implements ModelTurnStore {
  constructor(private readonly ctx: StoreContext) {}

  async enqueue(runId: string, turn: number, nowMs: number): Promise<void> {
    const row = {
      run_id: runId,
      turn,
      owner: null,
      lease_expires_ms: 0,
      attempts: 0,
      created_at_ms: nowMs,
      updated_at_ms: nowMs,
    };
    await this.ctx.write((db) =>
      db
        .insertInto("model_turns")
        .values(row)
        .onConflict((conflict) =>
          conflict.column("run_id").doUpdateSet({
            turn,
            owner: null,
            lease_expires_ms: 0,
            attempts: 0,
            created_at_ms: nowMs,
            updated_at_ms: nowMs,
          }),
        )
        .execute(),
    );
  }

  async get(runId: string): Promise<ModelTurnRecord | undefined> {
    return this.ctx.read((db) =>
      db.selectFrom("model_turns").select(COLUMNS).where("run_id", "=", runId).executeTakeFirst(),
    );
  }

  async claimable(nowMs: number, limit: number): Promise<ModelTurnRecord[]> {
    return this.ctx.read((db) =>
      db
        .selectFrom("model_turns")
        .select(COLUMNS)
        .where("lease_expires_ms", "<=", nowMs)
        .orderBy("created_at_ms")
        .orderBy("run_id")
        .limit(limit)
        .execute(),
    );
  }

  async lease(
    runId: string,
    owner: string,
    nowMs: number,
    leaseExpiresMs: number,
  ): Promise<ModelTurnRecord | undefined> {
    return this.ctx.write((db) =>
      db
        .updateTable("model_turns")
        .set((eb) => ({
          owner,
          lease_expires_ms: leaseExpiresMs,
          attempts: eb("attempts", "+", 1),
          updated_at_ms: nowMs,
        }))
        .where("run_id", "=", runId)
        .where("lease_expires_ms", "<=", nowMs)
        .returning(COLUMNS)
        .executeTakeFirst(),
    );
  }

  async renew(runId: string, owner: string, nowMs: number, leaseExpiresMs: number): Promise<boolean> {
    const result = await this.ctx.write((db) =>
      db
        .updateTable("model_turns")
        .set({ lease_expires_ms: leaseExpiresMs, updated_at_ms: nowMs })
        .where("run_id", "=", runId)
        .where("owner", "=", owner)
        .executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }

  async release(runId: string, owner: string, nowMs: number): Promise<boolean> {
    const result = await this.ctx.write((db) =>
      db
        .updateTable("model_turns")
        .set({ owner: null, lease_expires_ms: 0, updated_at_ms: nowMs })
        .where("run_id", "=", runId)
        .where("owner", "=", owner)
        .executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }

  async complete(runId: string, owner: string): Promise<boolean> {
    const result = await this.ctx.write((db) =>
      db.deleteFrom("model_turns").where("run_id", "=", runId).where("owner", "=", owner).executeTakeFirst(),
    );
    return result.numDeletedRows > 0n;
  }

  async remove(runId: string): Promise<void> {
    await this.ctx.write((db) => db.deleteFrom("model_turns").where("run_id", "=", runId).execute());
  }
}
