/**
 * The token estimator's calibration (`token_calibrations`): least-squares sums per (provider, model).
 * An observation is added in one upsert that increments every sum, so instances adding at the same
 * time never overwrite each other's terms.
 */

import { sql } from "kysely";
import { CALIBRATION_SUM_COLUMNS } from "../migrations/0008-models.js";
import type { CalibrationSums } from "../records.js";
import type { TokenCalibrationStore } from "../storage.js";
import type { StoreContext } from "../store-context.js";

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

  async add(provider: string, model: string, terms: readonly number[], nowMs: number): Promise<void> {
    if (terms.length !== CALIBRATION_SUM_COLUMNS.length) throw new Error("one term per calibration sum is required");
    const values = Object.fromEntries(CALIBRATION_SUM_COLUMNS.map((column, i) => [column, terms[i] ?? 0]));
    const increments = Object.fromEntries(
      CALIBRATION_SUM_COLUMNS.map((column) => [
        column,
        sql`token_calibrations.${sql.ref(column)} + excluded.${sql.ref(column)}`,
      ]),
    );
    await this.ctx.write((db) =>
      db
        .insertInto("token_calibrations")
        .values({ provider, model, observations: 1, updated_at_ms: nowMs, ...values } as never)
        .onConflict((conflict) =>
          conflict.columns(["provider", "model"]).doUpdateSet({
            ...increments,
            observations: sql`token_calibrations.observations + 1`,
            updated_at_ms: nowMs,
          } as never),
        )
        .execute(),
    );
  }
}
