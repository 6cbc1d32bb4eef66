/**
 * Whether writes can succeed, for readiness (`GET /v1/ready`): a database that answers reads but
 * refuses every write — SQLite on a full disk, PostgreSQL read-only (`default_transaction_read_only`,
 * a hot standby) — must not be reported ready, or a load balancer keeps sending it writes that all
 * answer 503. The check only reads (pragmas, `statfs`, a setting): a probe that wrote would cost an
 * fsync per readiness request and, inside SQLite's group commit, could fail the writes it shares a
 * batch with. The decision is pure; gathering the facts is the I/O.
 */

import { statfs } from "node:fs/promises";
import { dirname } from "node:path";
import { sql } from "kysely";
import type { DatabaseConnection } from "./connect-database.js";

/** Below this much room for new data a write of an ordinary request may fail: not ready. */
export const MIN_WRITE_ROOM_BYTES = 1024 * 1024;

/** What the check looked at. */
export type WritePathFacts =
  | {
      readonly dialect: "sqlite";
      /** Bytes the database may still grow by under `max_page_count`, its free pages included. */
      readonly roomInFileBytes: number;
      /** Bytes free for unprivileged users on the file system holding the file (undefined: unknown). */
      readonly freeOnDiskBytes: number | undefined;
      /** True when the connection refuses writes (`query_only`). */
      readonly queryOnly: boolean;
    }
  | { readonly dialect: "postgres"; readonly readOnly: boolean };

/** Why writes would fail, or undefined when they can succeed. */
export function writePathProblem(facts: WritePathFacts): string | undefined {
  if (facts.dialect === "postgres") {
    return facts.readOnly ? "the database is read-only (transaction_read_only is on): writes would fail" : undefined;
  }
  if (facts.queryOnly) return "the SQLite connection is read-only (query_only): writes would fail";
  if (facts.freeOnDiskBytes !== undefined && facts.freeOnDiskBytes < MIN_WRITE_ROOM_BYTES) {
    return `the disk holding the SQLite file has ${facts.freeOnDiskBytes} bytes free (under ${MIN_WRITE_ROOM_BYTES}): writes would fail`;
  }
  if (facts.roomInFileBytes < MIN_WRITE_ROOM_BYTES) {
    return `the SQLite file can grow by ${facts.roomInFileBytes} more bytes (max_page_count; under ${MIN_WRITE_ROOM_BYTES}): writes would fail`;
  }
  return undefined;
}

/** Reads the facts of `connection`'s write path (statements that only read). */
export async function writePathFacts(connection: DatabaseConnection): Promise<WritePathFacts> {
  const { db } = connection;
  if (connection.dialect === "postgres") {
    const row = await sql<{ read_only: string }>`select current_setting('transaction_read_only') as read_only`.execute(
      db,
    );
    return { dialect: "postgres", readOnly: row.rows[0]?.read_only === "on" };
  }
  const pragma = async (name: string): Promise<number> => {
    const result = await sql.raw<Record<string, number>>(`pragma ${name}`).execute(db);
    return Number(Object.values(result.rows[0] ?? {})[0] ?? 0);
  };
  const [pageSize, pageCount, maxPageCount, freePages, queryOnly] = [
    await pragma("page_size"),
    await pragma("page_count"),
    await pragma("max_page_count"),
    await pragma("freelist_count"),
    await pragma("query_only"),
  ];
  let freeOnDiskBytes: number | undefined;
  if (connection.filePath !== undefined) {
    const disk = await statfs(dirname(connection.filePath));
    freeOnDiskBytes = disk.bavail * disk.bsize;
  }
  return {
    dialect: "sqlite",
    roomInFileBytes: (maxPageCount - pageCount + freePages) * pageSize,
    freeOnDiskBytes,
    queryOnly: queryOnly === 1,
  };
}
