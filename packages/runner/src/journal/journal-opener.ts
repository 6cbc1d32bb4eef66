/**
 * Opening the journal, when it is first needed (`start()`, or a deferred call finished by a process
 * that never starts), never in the constructor. A file that cannot be used is a
 * `RunnerError('journal_unavailable')` naming the path and the cause: corrupt, a directory, or
 * locked by another process. A foreign lock is waited for asynchronously — attempts with the short
 * busy timeout, sleeps in between — so the host's event loop is never blocked for longer than one
 * attempt (`JOURNAL_BUSY_TIMEOUT_MS`).
 *
 * `start()` also takes the executor lock: an exclusive SQLite lock on a small file beside the journal,
 * one per executor ID, held until the runner shuts down. A second runner started with the same
 * executor ID on the same journal fails at once with `journal_unavailable`; the lock is the
 * operating system's, so a crashed process never leaves it behind.
 */

import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { RunnerError } from "../errors.js";
import { sleep } from "../runtime/sleep.js";
import { Journal } from "./journal.js";

/** How long `start()` waits for another process's lock on the journal before it gives up. */
export const JOURNAL_LOCK_WAIT_MS = 2_000;

/** Pause between attempts to open a locked journal. */
const RETRY_PAUSE_MS = 25;

/** SQLite's codes for a lock held by another connection. */
const LOCKED_CODES: ReadonlySet<string> = new Set(["SQLITE_BUSY", "SQLITE_LOCKED"]);

/** The journal of one runner, opened on first use. */
export class JournalOpener {
  #journal: Journal | undefined;
  #executorLock: Database.Database | undefined;

  constructor(readonly path: string) {}

  /** The journal, opened now if it is not (one attempt: a foreign lock blocks at most the busy timeout). */
  get journal(): Journal {
    if (this.#journal === undefined) this.#journal = this.#openOnce();
    return this.#journal;
  }

  /** True once the journal is open. */
  get isOpen(): boolean {
    return this.#journal !== undefined;
  }

  /** Opens the journal, waiting (asynchronously) up to JOURNAL_LOCK_WAIT_MS while another process locks it. */
  async open(): Promise<Journal> {
    const deadline = performance.now() + JOURNAL_LOCK_WAIT_MS;
    while (this.#journal === undefined) {
      try {
        this.#journal = this.#openOnce();
      } catch (error) {
        if (!(error instanceof RunnerError) || error.details?.locked !== true || performance.now() >= deadline) {
          throw error;
        }
        await sleep(RETRY_PAUSE_MS);
      }
    }
    return this.#journal;
  }

  /** Takes the executor lock of `executorId`; throws `journal_unavailable` when another runner holds it. */
  lockExecutor(executorId: string): void {
    if (this.#executorLock !== undefined) return;
    const lockPath = executorLockPath(this.path, executorId);
    let db: Database.Database | undefined;
    try {
      db = new Database(lockPath, { timeout: 0 });
      db.exec("BEGIN EXCLUSIVE");
    } catch (error) {
      db?.close();
      const code = codeOf(error);
      const cause = LOCKED_CODES.has(code)
        ? `another runner with executor ID ${JSON.stringify(executorId)} is started on it (its lock ${lockPath} is held); run one started runner per executor ID and journal`
        : `the executor lock ${lockPath} cannot be taken: ${messageOf(error)}`;
      throw new RunnerError("journal_unavailable", `the journal at ${this.path} is unavailable: ${cause}`, {
        path: this.path,
        lockPath,
        code,
      });
    }
    this.#executorLock = db;
  }

  /** Releases the executor lock and closes the journal (both when held / open). */
  close(): void {
    const lock = this.#executorLock;
    this.#executorLock = undefined;
    if (lock !== undefined) {
      try {
        lock.exec("ROLLBACK");
      } finally {
        lock.close();
      }
    }
    this.#journal?.close();
  }

  #openOnce(): Journal {
    try {
      return Journal.open(this.path);
    } catch (error) {
      const code = codeOf(error);
      const locked = LOCKED_CODES.has(code);
      const cause = locked ? "the file is locked by another process" : describeCause(code, error);
      throw new RunnerError("journal_unavailable", `the journal at ${this.path} is unavailable: ${cause}`, {
        path: this.path,
        code,
        locked,
      });
    }
  }
}

/** The executor lock's file: beside the journal, named by a hash of the executor ID (any ID is a safe name). */
export function executorLockPath(journalPath: string, executorId: string): string {
  const digest = createHash("sha256").update(executorId).digest("hex").slice(0, 16);
  return `${journalPath}.executor-${digest}.lock`;
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "unknown";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describeCause(code: string, error: unknown): string {
  switch (code) {
    case "SQLITE_NOTADB":
    case "SQLITE_CORRUPT":
      return `the file is not a journal (corrupt or another kind of file): ${messageOf(error)}`;
    case "SQLITE_CANTOPEN":
      return `the file cannot be opened (a directory, a missing folder or no permission): ${messageOf(error)}`;
    default:
      return messageOf(error);
  }
}
