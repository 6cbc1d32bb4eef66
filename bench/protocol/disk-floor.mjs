/**
 * The disk's floor under the SQLite numbers: how long one small committed transaction takes on a SQLite
 * file next to the server's (same directory, WAL, `synchronous=FULL`), i.e. mostly one fsync. Every
 * wake-up sample contains at least one such commit (the run's creation), so its p99 bounds theirs.
 */

import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";

/**
 * Times `count` one-row transactions in `dir`.
 * @returns {number[]} milliseconds per commit
 */
export function measureCommits(dir, count) {
  const database = new BetterSqlite3(join(dir, "disk-floor.db"));
  try {
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = FULL");
    database.exec("create table t (id integer primary key, body text not null)");
    const insert = database.prepare("insert into t (body) values (?)");
    const body = "x".repeat(400);
    const times = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      database.exec("begin immediate");
      insert.run(body);
      database.exec("commit");
      times.push(performance.now() - t0);
    }
    return times;
  } finally {
    database.close();
  }
}
