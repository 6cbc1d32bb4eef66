/**
 * The token estimator's calibration (`token_calibrations`): least-squares sums per (provider, model).
 * An observation is added to an existing row by one UPDATE that increments every sum, so instances
 * adding at the same time never overwrite each other's terms. Model names are the tenants' text: a
 * provider's first observation of a model adds a row only while the provider has fewer than
 * CALIBRATED_MODELS_PER_PROVIDER rows (docs/runs.md#the-context-window).
 */

import { sql } from "kysely";
import type { StoreContext } from "../engine/store-context.js";
import { CALIBRATION_SUM_COLUMNS } from "../migrations/0008-models.js";
import type { CalibrationSums } from "../records.js";
import type { TokenCalibrationStore } from "./contract.js";

/**
 * Models calibrated per provider at most. Beyond it a new model's requests are estimated with the
 * prior (as the scripted model's are); the models calibrated already keep learning. Concurrent
 * first observations on several PostgreSQL instances may each see room and add a row: the table
 * then holds at most a few more, never without bound.
 */
export const CALIBRATED_MODELS_PER_PROVIDER = 256;

/** The TokenCalibrationStore over Kysely (both dialects). */
export class KyselyTokenCalibrationStore implements TokenCalibrationStore {
  constructor(private readonly ctx: StoreContext) {}

  async get(provider: string, model: string): Promise<CalibrationSums | undefined> {
    const row = await this.ctx.read((db) =>
      db
        .selectFrom("token_calibrations")
        .selectAll()
        .where("provider", "=", provider)
        .where("model", "=", model)
        .executeTakeFirst(),
    );
    if (row === undefined) return undefined;
    return {
      observations: Number(row.observations),
      sums: CALIBRATION_SUM_COLUMNS.map((column) => Number(row[column])),
    };
  }

  async add(provider: string, model: string, terms: readonly number[], nowMs: number): Promise<boolean> {
    if (terms.length !== CALIBRATION_SUM_COLUMNS.length) throw new Error("one term per calibration sum is required");
    const values = Object.fromEntries(CALIBRATION_SUM_COLUMNS.map((column, i) => [column, terms[i] ?? 0]));
    const increments = Object.fromEntries(
      CALIBRATION_SUM_COLUMNS.map((column, i) => [column, sql`${sql.ref(column)} + ${terms[i] ?? 0}`]),
    );
    return this.ctx.write(async (db) => {
      // The usual case, a model calibrated already: one statement.
      const updated = await db
        .updateTable("token_calibrations")
        .set({ ...increments, observations: sql`observations + 1`, updated_at_ms: nowMs } as never)
        .where("provider", "=", provider)
        .where("model", "=", model)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return true;
      const { count } = await db
        .selectFrom("token_calibrations")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("provider", "=", provider)
        .executeTakeFirstOrThrow();
      if (Number(count) >= CALIBRATED_MODELS_PER_PROVIDER) return false;
      // Another instance may add the row in the meantime: the upsert adds to its sums then.
      const upsertIncrements = Object.fromEntries(
        CALIBRATION_SUM_COLUMNS.map((column) => [
          column,
          sql`token_calibrations.${sql.ref(column)} + excluded.${sql.ref(column)}`,
        ]),
      );
      await db
        .insertInto("token_calibrations")
        .values({ provider, model, observations: 1, updated_at_ms: nowMs, ...values } as never)
        .onConflict((conflict) =>
          conflict.columns(["provider", "model"]).doUpdateSet({
            ...upsertIncrements,
            observations: sql`token_calibrations.observations + 1`,
            updated_at_ms: nowMs,
          } as never),
        )
        .execute();
      return true;
    });
  }
}
