/**
 * The crash product's business ledger: one row per side effect, with NO de-duplication (no unique
 * key on the operation key), so a handler that ran twice would leave two rows and the harness would
 * see it. Shared by every executor process (SQLite, WAL, synchronous=FULL like a real product DB).
 */

import Database from "better-sqlite3";

/** Opens (creating if needed) the ledger at `path`. */
export function openLedger(path) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 10000");
  db.exec(`CREATE TABLE IF NOT EXISTS effects (
    effect_id INTEGER PRIMARY KEY AUTOINCREMENT,
    operation_key TEXT NOT NULL,
    call_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    executor_id TEXT NOT NULL,
    pid INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL
  )`);
  db.exec("CREATE INDEX IF NOT EXISTS effects_operation_key ON effects (operation_key)");
  const insert = db.prepare(
    "INSERT INTO effects (operation_key, call_id, run_id, executor_id, pid, amount, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const byKey = db.prepare("SELECT * FROM effects WHERE operation_key = ? ORDER BY effect_id");
  return {
    /** Applies one side effect (always a new row). */
    apply(effect) {
      const result = insert.run(
        effect.operationKey,
        effect.callId,
        effect.runId,
        effect.executorId,
        process.pid,
        effect.amount,
        Date.now(),
      );
      return { effectId: Number(result.lastInsertRowid) };
    },
    /** Every effect recorded under `operationKey` (more than one would be a duplicate). */
    effectsOf(operationKey) {
      return byKey.all(operationKey);
    },
    /** Every effect, oldest first. */
    all() {
      return db.prepare("SELECT * FROM effects ORDER BY effect_id").all();
    },
    close() {
      db.close();
    },
  };
}
