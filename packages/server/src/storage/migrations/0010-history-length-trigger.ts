/**
 * 0010_history_length_trigger: on SQLite, `runs.history_length` follows the history by a trigger, so
 * that appending to a run's history is one INSERT (the new items' `seq`s read from the run's length
 * inside it) instead of an UPDATE that bumps the length and then the INSERT. The hot path appends on
 * every run creation and settled call (docs/storage.md, statements per request). SQLite runs a row
 * trigger's INSERT … SELECT from a materialised copy of the SELECT, so the items of one statement
 * number from the length before it. PostgreSQL needs no trigger: its append is already one statement
 * (a data-modifying CTE whose bump takes the run's row lock, which orders concurrent appends).
 */

import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../storage.js";

/** The trigger's name. */
export const HISTORY_LENGTH_TRIGGER = "execution_history_length";

/** The 0010_history_length_trigger migration for `dialect` (nothing to do on PostgreSQL). */
export function historyLengthTriggerMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "sqlite") return;
      // max(): a row inserted below the length (never by the store) cannot shorten it.
      await sql`
        create trigger ${sql.id(HISTORY_LENGTH_TRIGGER)} after insert on execution_history
        begin
          update runs set history_length = max(history_length, new.seq + 1) where run_id = new.run_id;
        end`.execute(db);
    },

    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "sqlite") return;
      await sql`drop trigger if exists ${sql.id(HISTORY_LENGTH_TRIGGER)}`.execute(db);
    },
  };
}
