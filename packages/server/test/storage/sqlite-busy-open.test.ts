/**
 * Opening a SQLite file another connection holds: the step SQLite refuses as busy at once (without its
 * busy handler) is tried again until the lock is gone or the time is up — real connections on a real
 * file, the lock released from inside the retried step.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { whileSqliteBusy } from "../../src/storage/engine/connect-database.js";
import { describeDialect } from "../support/test-databases.js";

describeDialect("sqlite", "SQLite busy while opening", () => {
  let dir: string;
  let holder: BetterSqlite3.Database;
  let opener: BetterSqlite3.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "toolhost-busy-"));
    const file = join(dir, "busy.db");
    holder = new BetterSqlite3(file);
    holder.exec("create table t (x integer)");
    opener = new BetterSqlite3(file);
    // No busy handler: every conflict is refused at once, as SQLite does for some.
    opener.pragma("busy_timeout = 0");
    holder.exec("begin exclusive");
  });

  afterEach(() => {
    if (holder.inTransaction) holder.exec("rollback");
    holder.close();
    opener.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("tries a busy step again and answers once the other connection let go", () => {
    let tries = 0;
    const mode = whileSqliteBusy(() => {
      tries++;
      // The other connection commits after the second refusal.
      if (tries === 3) holder.exec("commit");
      return opener.pragma("journal_mode = WAL", { simple: true });
    });
    expect(mode).toBe("wal");
    expect(tries).toBe(3);
  });

  it("lets SQLITE_BUSY through once the time is up", () => {
    let tries = 0;
    expect(() =>
      whileSqliteBusy(() => {
        tries++;
        return opener.pragma("journal_mode = WAL");
      }, 30),
    ).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
    expect(tries).toBeGreaterThan(1);
  });

  it("does not retry other failures", () => {
    holder.exec("commit");
    let tries = 0;
    expect(() =>
      whileSqliteBusy(() => {
        tries++;
        return opener.prepare("select * from no_such_table").all();
      }),
    ).toThrow(/no such table/);
    expect(tries).toBe(1);
  });
});
