/**
 * The `--db URL` option of the commands that use the database: `--db`, else `TOOLHOST_DATABASE_URL`, else
 * `sqlite:./toolhost.db` — the server's own precedence and checks, so every command reads the same
 * database the server would.
 */

import { existsSync } from "node:fs";
import type { Storage } from "@toolhost/server";
import type { Command } from "commander";
import type { CommandContext } from "./command-context.js";
import { CommandFailure } from "./command-failure.js";
import { EXIT_STATUS } from "./exit-status.js";
import { loadServer, SHOWN_SERVER_DEFAULTS } from "./server-module.js";

/** The options every database command takes. */
export interface DatabaseOptions {
  db?: string;
}

/** Adds `--db URL` to `command`. */
export function addDatabaseOption(command: Command): Command {
  return command.option(
    "--db <url>",
    `sqlite:PATH or postgres://… (default: $TOOLHOST_DATABASE_URL, else ${SHOWN_SERVER_DEFAULTS.databaseUrl})`,
  );
}

/** The database URL a command uses; a malformed `--db` or `TOOLHOST_DATABASE_URL` is a usage error. */
export async function databaseUrlOf(options: DatabaseOptions, context: CommandContext): Promise<string> {
  const { compileServerOptions, parseDatabaseUrl } = await loadServer();
  try {
    if (options.db !== undefined) parseDatabaseUrl(options.db);
  } catch (error) {
    throw new CommandFailure(`--db: ${(error as Error).message}`, EXIT_STATUS.usage);
  }
  try {
    const env = { TOOLHOST_DATABASE_URL: context.env.TOOLHOST_DATABASE_URL };
    return compileServerOptions(options.db === undefined ? {} : { databaseUrl: options.db }, env).databaseUrl;
  } catch (error) {
    throw new CommandFailure((error as Error).message, EXIT_STATUS.usage);
  }
}

/**
 * Opens an existing database, bringing its schema up to date as the server does on start. A SQLite
 * file that does not exist is refused rather than created: a mistyped path would otherwise look empty.
 */
export async function openExistingStorage(url: string): Promise<Storage> {
  const { openStorage, parseDatabaseUrl, redactDatabaseUrl } = await loadServer();
  const location = parseDatabaseUrl(url);
  if (location.dialect === "sqlite" && location.path !== ":memory:" && !existsSync(location.path)) {
    throw new CommandFailure(
      `database ${redactDatabaseUrl(url)} does not exist; run 'toolhost migrate' (or start 'toolhost serve') first`,
    );
  }
  return openStorage(url);
}

/** Runs `work` on the existing database at `url` and closes it afterwards. */
export async function withStorage<T>(url: string, work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await openExistingStorage(url);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}
