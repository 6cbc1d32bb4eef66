/**
 * The exit statuses of the `toolhost` command, one meaning each, so scripts can branch on them.
 */

/** What the `toolhost` process exit status means. */
export const EXIT_STATUS = {
  /** Every input was accepted; the command did what it was asked. */
  ok: 0,
  /**
   * At least one input was refused (bad JSON, not UTF-8, unreadable file, a dry-run finding invalid
   * arguments or receipts), the command failed (database or server unreachable, an error answered), or
   * standard output failed.
   */
  refused: 1,
  /** The command line itself is wrong: unknown command or option, bad option value. */
  usage: 2,
} as const;

/** One of the exit statuses. */
export type ExitStatus = (typeof EXIT_STATUS)[keyof typeof EXIT_STATUS];
