/**
 * Where the demo's executor keeps its journal and its product database: next to a SQLite database
 * file (`toolhost.db` → `toolhost.db.demo/`), so a second start finds them again; for an in-memory or
 * PostgreSQL database, a temporary directory removed when the command ends.
 */

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";

/** The directory and how to clean it up (a no-op for the kept one). */
export interface DemoStateDirectory {
  readonly path: string;
  remove(): void;
}

/** The state directory for the database at `databaseUrl` (`sqlite:PATH`, `sqlite::memory:`, `postgres://…`). */
export function demoStateDirectory(databaseUrl: string): DemoStateDirectory {
  const file = /^sqlite:(.+)$/.exec(databaseUrl)?.[1];
  if (file !== undefined && file !== ":memory:") {
    const path = resolve(`${file}.demo`);
    mkdirSync(path, { recursive: true });
    return { path, remove: () => undefined };
  }
  const path = mkdtempSync(resolve(tmpdir(), "toolhost-demo-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
