/**
 * `toolhost migrate [--db URL]`: applies the database migrations that are pending and prints one line
 * per migration applied, or `up to date (<newest>)` when there was none. Safe to run again, and while
 * servers run (concurrent runs wait for each other). `toolhost serve` migrates on start too.
 */

import type { MigrationReport } from "@toolhost/server";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { addDatabaseOption, type DatabaseOptions, databaseUrlOf } from "../database-option.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { loadServer } from "../server-module.js";

/** What `migrate` prints for a migration report (newline-terminated lines). */
export function migrationReportText(report: MigrationReport): string {
  if (report.applied.length === 0) return `up to date (${report.current ?? "no migrations"})\n`;
  return report.applied.map((name) => `applied ${name}\n`).join("");
}

/** Migrates the database and prints what was applied. */
export async function runMigrate(options: DatabaseOptions, context: CommandContext): Promise<ExitStatus> {
  const url = await databaseUrlOf(options, context);
  const { openStorage, redactDatabaseUrl } = await loadServer();
  let report: MigrationReport;
  try {
    const storage = await openStorage(url, { migrate: false });
    try {
      report = await storage.migrate();
    } finally {
      await storage.close();
    }
  } catch (error) {
    throw new CommandFailure(`${redactDatabaseUrl(url)}: ${(error as Error).message}`);
  }
  await context.stdout.write(migrationReportText(report));
  return EXIT_STATUS.ok;
}

/** Defines `toolhost migrate`. */
export const defineMigrateCommand: CommandDefinition = (program, context) =>
  addDatabaseOption(
    program
      .command("migrate")
      .summary("apply pending database migrations")
      .description(
        "Apply the pending database migrations (creating a SQLite file that does not exist yet). " +
          "Running it again changes nothing.",
      ),
  )
    .addHelpText(
      "after",
      `
Output:
  "applied <migration>" for each migration applied, in order, or
  "up to date (<newest migration>)" when none was pending.

Exit status: 0 migrated (or up to date), 1 the database could not be opened or
a migration failed, 2 usage error.`,
    )
    .action(async (options: DatabaseOptions) => {
      context.setExitStatus(await runReported(context, () => runMigrate(options, context)));
    });
