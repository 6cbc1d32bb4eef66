/**
 * The fsync that makes a SQLite commit durable, run on libuv's thread pool instead of the event loop.
 *
 * Why: better-sqlite3 is synchronous, so under `synchronous=FULL` every COMMIT's fsync of the WAL
 * blocked the server's only thread for milliseconds, and no request could be parsed, validated or
 * answered meanwhile. The connection now runs with `synchronous=NORMAL` (a COMMIT writes its WAL
 * frames without waiting for the disk; SQLite still syncs the WAL before every checkpoint) and the
 * group committer calls `sync()` after each COMMIT: the same fdatasync of the same file, off the
 * thread. The committer holds the connection until it resolves and answers no transaction before
 * then, so nothing is acknowledged — and no other statement reads the new rows — before they are on
 * disk, as with `synchronous=FULL` (see docs/storage.md).
 *
 * The WAL file is opened once and kept: SQLite only deletes it when its last connection closes, and
 * the server's connection stays open until the storage closes.
 */

import { type FileHandle, open } from "node:fs/promises";

/** What the storage needs of a WAL sync (tests wrap the real one to hold or fail it). */
export interface WalSync {
  /** Waits until every byte written to the WAL so far is on disk. */
  sync(): Promise<void>;
  /** Releases the file (after the last commit). */
  close(): Promise<void>;
}

/** Syncs one SQLite database's `-wal` file. */
export class SqliteWalSync implements WalSync {
  readonly #walPath: string;
  #handle: Promise<FileHandle> | undefined;
  #syncs = 0;

  /** `databasePath`: the database file (absolute); its WAL is `${databasePath}-wal`. */
  constructor(databasePath: string) {
    this.#walPath = `${databasePath}-wal`;
  }

  /** Waits until every byte written to the WAL so far is on disk. */
  async sync(): Promise<void> {
    // Opened after the first commit, which is what creates the file. Read-only suffices: fdatasync
    // flushes the file's data whichever descriptor asks.
    this.#handle ??= open(this.#walPath, "r");
    let handle: FileHandle;
    try {
      handle = await this.#handle;
    } catch (error) {
      this.#handle = undefined;
      // No WAL yet: nothing was ever committed to it, so nothing waits for the disk.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    await handle.datasync();
    this.#syncs++;
  }

  /** Successful syncs since creation. */
  get syncs(): number {
    return this.#syncs;
  }

  /** Closes the WAL's descriptor (the storage calls it after the last commit). */
  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }
}
