// Migrations: applied once and recorded, safe when several instances start at once, the legacy
// budget migration (0002) rewrites stored tools exactly as specified while leaving history untouched,
// and 0007 records the bindings of every stored toolset version.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Kysely, type Migrator, sql } from "kysely";
import { expect, it } from "vitest";
import { runStatusEvent, toolCallEvent } from "../../src/runs/run-events.js";
import type { NewReceipt } from "../../src/storage/calls/insert-receipt-query.js";
import type { Database } from "../../src/storage/database-schema.js";
import { connectDatabase } from "../../src/storage/engine/connect-database.js";
import { resultContextBytesMigration } from "../../src/storage/migrations/0002-result-context-bytes.js";
import { MIGRATION_NAMES } from "../../src/storage/migrations/migration-list.js";
import { applyMigrations, createMigrator, MIGRATION_TABLE } from "../../src/storage/migrations/migrator.js";
import { openStorage } from "../../src/storage/open-storage.js";
import type { ReceiptRecord } from "../../src/storage/records.js";
import { StoredStateChangedError } from "../../src/storage/stored-state-changed.js";
import { callRecord, publishRuntime, receiptRecord, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";

const LATEST = MIGRATION_NAMES[MIGRATION_NAMES.length - 1];

/** A receipt's row as the schemas before 0019 held it (the digest as its `sha256:` text). */
function oldSchemaReceipt(receipt: ReceiptRecord) {
  return { ...receipt, applied: receipt.applied ? 1 : 0, body_digest: receipt.body_digest as unknown as Uint8Array };
}

/** Dumps so far: each dump's text is new, so PostgreSQL never runs it from a plan named before a migration changed its columns. */
let dumps = 0;

/** Every table with its rows in primary-key order, as JSON text (byte-for-byte comparable). */
async function dumpTables(db: Kysely<Database>): Promise<Record<string, string>> {
  const tables = [
    "keys",
    "bindings",
    "toolsets",
    "toolset_versions",
    "agents",
    "agent_versions",
    "sessions",
    "execution_history",
    MIGRATION_TABLE,
  ];
  const dump: Record<string, string> = {};
  for (const table of tables) {
    const rows = await sql`select * from ${sql.table(table)} order by 1, 2 ${sql.raw(`/* dump ${++dumps} */`)}`.execute(
      db,
    );
    dump[table] = JSON.stringify(rows.rows);
  }
  return dump;
}

// Stored at 0001_initial: legacy tools in several positions and formats, next to tools that must stay.
const LEGACY_V1 =
  '[{"name":"search","description":"Search {\\"docs\\"}","binding_id":"b1","input_schema":{"type":"object","properties":{"max_result_tokens":{"type":"integer"}}},"max_result_tokens":2000,"effect":"read","timeout_ms":30000},{"name":"fetch","binding_id":"b1","input_schema":{"type":"object"},"max_result_context_bytes":4096},{"name":"plain","binding_id":"b2","input_schema":{"type":"object"}}]';
const LEGACY_V1_AFTER =
  '[{"name":"search","description":"Search {\\"docs\\"}","binding_id":"b1","input_schema":{"type":"object","properties":{"max_result_tokens":{"type":"integer"}}},"max_result_context_bytes":16384,"effect":"read","timeout_ms":30000},{"name":"fetch","binding_id":"b1","input_schema":{"type":"object"},"max_result_context_bytes":4096},{"name":"plain","binding_id":"b2","input_schema":{"type":"object"}}]';
const LEGACY_V2 = `[
  {
    "max_result_tokens": 500,
    "name": "pretty",
    "binding_id": "b1",
    "input_schema": {"type": "object", "maximum": 12345678901234567890, "multipleOf": 1.50}
  }
]`;
const LEGACY_V2_AFTER = LEGACY_V2.replace('"max_result_tokens": 500', '"max_result_context_bytes": 16384');
const LEGACY_V3 =
  '[{"name":"ok","binding_id":"b2","input_schema":{"type":"object"},"max_result_context_bytes":4096},{"name":"last","binding_id":"b2","input_schema":{"type":"object"},"effect":"write","max_result_tokens":null}]';
const LEGACY_V3_AFTER = LEGACY_V3.replace('"max_result_tokens":null', '"max_result_context_bytes":16384');
const MODERN =
  '[{"name":"m1","binding_id":"b1","input_schema":{"type":"object"},"max_result_context_bytes":4096},{"name":"m2","binding_id":"b2","input_schema":{"type":"object"},"max_result_context_bytes":32768}]';
const HISTORY = [
  {
    run_id: "run_1",
    seq: 1,
    item_json: '{"type":"tool_result","call_id":"c1","context_preview":{"max_result_tokens":2000}}',
  },
  { run_id: "run_1", seq: 2, item_json: '[{"name":"looks like a tool","max_result_tokens":1}]' },
  { run_id: "run_2", seq: 1, item_json: '{"type":"message","text":"unicode ✓ 😀 \\u0000"}' },
];

async function seedLegacyData(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto("toolsets")
    .values([
      { toolset_id: "ts_legacy", name: "Legacy", latest_version: 3, created_at_ms: 1_000 },
      { toolset_id: "ts_modern", name: "Modern", latest_version: 1, created_at_ms: 1_000 },
    ])
    .execute();
  await db
    .insertInto("toolset_versions")
    .values([
      { toolset_id: "ts_legacy", version: 1, tools_json: LEGACY_V1, created_at_ms: 1_000 },
      { toolset_id: "ts_legacy", version: 2, tools_json: LEGACY_V2, created_at_ms: 1_001 },
      { toolset_id: "ts_legacy", version: 3, tools_json: LEGACY_V3, created_at_ms: 1_002 },
      { toolset_id: "ts_modern", version: 1, tools_json: MODERN, created_at_ms: 1_003 },
    ])
    .execute();
  await db
    .insertInto("execution_history")
    .values(HISTORY.map((item, i) => ({ ...item, created_at_ms: 5_000 + i })))
    .execute();
  await db.insertInto("bindings").values({ binding_id: "b1", name: "B1", created_at_ms: 900 }).execute();
}

const serverDist = fileURLToPath(new URL("../../dist/storage/open-storage.js", import.meta.url));

/** Runs `migrate()` in a separate Node process, as a second server instance would; answers its report. */
async function migrateInProcess(url: string): Promise<{ applied: string[]; current: string | null }> {
  const script = `import { openStorage } from ${JSON.stringify(serverDist)};
const storage = await openStorage(process.env.DB_URL, { migrate: false });
process.stdout.write(JSON.stringify(await storage.migrate()));
await storage.close();`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, DB_URL: url },
  });
  return JSON.parse(stdout);
}

describeEachDialect("migrations", (dialect) => {
  it("lists the migrations in apply order", () => {
    expect(MIGRATION_NAMES).toEqual([
      "0001_initial",
      "0002_result_context_bytes",
      "0003_runtime",
      "0004_receipts_per_claim",
      "0005_executor_tool_names",
      "0006_run_output_json",
      "0007_toolset_bindings",
      "0008_models",
      "0009_call_trace_context",
      "0010_history_length_trigger",
      "0011_runs_list_indexes",
      "0012_key_connections",
      "0013_run_limits",
      "0014_queue_indexes",
      "0015_run_retention",
      "0016_run_event_references",
      "0017_receipt_result_references",
      "0018_run_events_without_rowid",
      "0019_receipt_answers_and_run_refs",
      "0020_busy_table_autovacuum",
      "0021_runs_ready",
      "0022_receipt_envelopes",
      "0023_run_event_batches",
      "0024_binding_call_indexes",
    ]);
  });

  it("applies every migration once and records it; migrating again applies nothing", async () => {
    const database = await testDatabaseUrl(dialect);
    const storage = await openStorage(database.url, { migrate: false });
    try {
      expect(await storage.migrate()).toEqual({ applied: [...MIGRATION_NAMES], current: LATEST });
      expect(await storage.migrate()).toEqual({ applied: [], current: LATEST });
      await storage.close();
      const reopened = await openStorage(database.url);
      expect(await reopened.migrate()).toEqual({ applied: [], current: LATEST });
      await reopened.close();
      const connection = await connectDatabase(database.url);
      const recorded = await sql<{
        name: string;
      }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(connection.db);
      await connection.db.destroy();
      expect(recorded.rows.map((row) => row.name)).toEqual([...MIGRATION_NAMES]);
    } finally {
      await storage.close();
      await database.dispose();
    }
  });

  it("applies each migration exactly once when three instances (processes) migrate at once", async () => {
    const database = await testDatabaseUrl(dialect);
    try {
      // allSettled: every process has ended before the database is removed, and each failure shows.
      const settled = await Promise.allSettled([1, 2, 3].map(() => migrateInProcess(database.url)));
      expect(settled.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []))).toEqual([]);
      const reports = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      expect(reports.flatMap((report) => report.applied).sort()).toEqual([...MIGRATION_NAMES]);
      for (const report of reports) expect(report.current).toBe(LATEST);
    } finally {
      await database.dispose();
    }
  });

  if (dialect === "postgres") {
    it("applies each migration exactly once when three storages in one process migrate at once", async () => {
      const database = await testDatabaseUrl(dialect);
      const storages = await Promise.all([1, 2, 3].map(() => openStorage(database.url, { migrate: false })));
      try {
        const reports = await Promise.all(storages.map((storage) => storage.migrate()));
        expect(reports.flatMap((report) => report.applied).sort()).toEqual([...MIGRATION_NAMES]);
        for (const report of reports) expect(report.current).toBe(LATEST);
        expect(await storages[0]?.bindings.insert({ binding_id: "b1", name: "B", created_at_ms: 1 })).toBe(true);
      } finally {
        for (const storage of storages) await storage.close();
        await database.dispose();
      }
    });
  }

  it("reports what it applied when the read after a successful run fails once with a transient error", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    try {
      const migrator = createMigrator(connection);
      const read = migrator.getMigrations.bind(migrator);
      let failures = 0;
      // As when another schema of the database is dropped while Kysely lists every schema's tables.
      migrator.getMigrations = async () => {
        if (failures++ === 0) throw Object.assign(new Error('relation "t_gone.x" does not exist'), { code: "42P01" });
        return read();
      };
      expect(await applyMigrations(migrator)).toEqual({ applied: [...MIGRATION_NAMES], current: LATEST });
      expect(failures).toBe(2);
    } finally {
      await connection.db.destroy();
      await database.dispose();
    }
  });

  it("0002 rewrites legacy tool budgets to 16384 once and leaves everything else untouched", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    try {
      const migrator = createMigrator(connection);
      expect(await applyMigrations(migrator, (m) => m.migrateTo("0001_initial"))).toEqual({
        applied: ["0001_initial"],
        current: "0001_initial",
      });
      await seedLegacyData(db);
      const before = await dumpTables(db);

      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0002_result_context_bytes")),
        current: LATEST,
      });
      const after = await dumpTables(db);
      const versions = await db
        .selectFrom("toolset_versions")
        .selectAll()
        .orderBy("toolset_id")
        .orderBy("version")
        .execute();
      expect(versions.map((v) => [v.toolset_id, v.version, v.tools_json, v.created_at_ms])).toEqual([
        ["ts_legacy", 1, LEGACY_V1_AFTER, 1_000],
        ["ts_legacy", 2, LEGACY_V2_AFTER, 1_001],
        ["ts_legacy", 3, LEGACY_V3_AFTER, 1_002],
        ["ts_modern", 1, MODERN, 1_003],
      ]);
      // Every tool that had the legacy field now has the new budget in its place and nothing else changed.
      const originals = [LEGACY_V1, LEGACY_V2, LEGACY_V3, MODERN];
      for (const [i, version] of versions.entries()) {
        const old = JSON.parse(originals[i] as string) as Record<string, unknown>[];
        const now = JSON.parse(version.tools_json) as Record<string, unknown>[];
        expect(now).toHaveLength(old.length);
        for (const [j, tool] of old.entries()) {
          const rewritten = now[j] as Record<string, unknown>;
          expect(rewritten).not.toHaveProperty("max_result_tokens");
          if (!Object.hasOwn(tool, "max_result_tokens")) {
            expect(rewritten).toEqual(tool);
            continue;
          }
          expect(rewritten.max_result_context_bytes).toBe(16384);
          expect(Object.keys(rewritten)).toEqual(
            Object.keys(tool).map((k) => (k === "max_result_tokens" ? "max_result_context_bytes" : k)),
          );
        }
      }
      // Committed history and every other table are byte-identical.
      const history = await db
        .selectFrom("execution_history")
        .select(["run_id", "seq", "item_json"])
        .orderBy("run_id")
        .orderBy("seq")
        .execute();
      expect(history).toEqual(HISTORY);
      for (const table of Object.keys(before).filter((t) => t !== "toolset_versions" && t !== MIGRATION_TABLE)) {
        expect(after[table], table).toBe(before[table]);
      }

      // Running the migrations again changes nothing; so does running the data migration itself again.
      expect(await applyMigrations(migrator)).toEqual({ applied: [], current: LATEST });
      expect(await dumpTables(db)).toEqual(after);
      await resultContextBytesMigration.up(db);
      expect(await dumpTables(db)).toEqual(after);
    } finally {
      await db.destroy();
      await database.dispose();
    }
  });

  it("0007 records every binding of every stored toolset version once, past a batch boundary", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    try {
      const migrator = createMigrator(connection);
      // Up to the migration before 0007, whichever that is.
      const before0007 = MIGRATION_NAMES[MIGRATION_NAMES.indexOf("0007_toolset_bindings") - 1] ?? "0003_runtime";
      await applyMigrations(migrator, (m) => m.migrateTo(before0007));
      await seedLegacyData(db);
      const many = Array.from({ length: 601 }, (_, i) => ({
        toolset_id: "ts_many",
        version: i + 1,
        tools_json: i === 600 ? MODERN.replaceAll('"b2"', '"late"') : "[]",
        created_at_ms: 2_000 + i,
      }));
      await db
        .insertInto("toolsets")
        .values([
          { toolset_id: "ts_many", name: "Many", latest_version: 601, created_at_ms: 1_100 },
          { toolset_id: "ts_empty", name: "Empty", latest_version: 1, created_at_ms: 1_200 },
        ])
        .execute();
      for (let i = 0; i < many.length; i += 200) {
        await db
          .insertInto("toolset_versions")
          .values(many.slice(i, i + 200))
          .execute();
      }
      await db
        .insertInto("toolset_versions")
        .values({ toolset_id: "ts_empty", version: 1, tools_json: "[]", created_at_ms: 1_200 })
        .execute();
      const before = await dumpTables(db);

      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0007_toolset_bindings")),
        current: LATEST,
      });
      const rows = await db
        .selectFrom("toolset_bindings")
        .select(["toolset_id", "binding_id"])
        .orderBy("toolset_id")
        .orderBy("binding_id")
        .execute();
      expect(rows.map((row) => `${row.toolset_id}/${row.binding_id}`)).toEqual([
        "ts_legacy/b1",
        "ts_legacy/b2",
        "ts_many/b1",
        "ts_many/late",
        "ts_modern/b1",
        "ts_modern/b2",
      ]);
      // Nothing else changed. Read on a new connection: PostgreSQL refuses a cached `select *` plan once a
      // later migration added a column (0012 adds one to `keys`, which holds no row here).
      const fresh = await connectDatabase(database.url);
      const after = await dumpTables(fresh.db).finally(() => fresh.db.destroy());
      for (const table of Object.keys(before).filter((t) => t !== MIGRATION_TABLE)) {
        expect(after[table], table).toBe(before[table]);
      }

      const storage = await openStorage(database.url);
      try {
        const visible = await storage.toolsets.list({ limit: 10 }, ["b1", "late"]);
        expect(visible.items.map((toolset) => toolset.toolset_id)).toEqual(["ts_many", "ts_empty"]);
        expect(await storage.toolsets.get("ts_legacy", ["b1"])).toBeUndefined();
      } finally {
        await storage.close();
      }
    } finally {
      await db.destroy();
      await database.dispose();
    }
  });

  it("0004 keys receipts per claim and keeps every stored receipt byte for byte; down goes back", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    const storage = await openStorage(database.url, { migrate: false });
    // The columns 0003 made (later migrations add columns, NULL for these rows) but the digest, stored
    // as bytes since 0019 (the store reads it back as the same text: compared below).
    const receiptRows = () =>
      sql`select call_id, receipt_id, seq, run_id, kind, executor_id, claim_id, body_text, answer_json,
            applied, created_at_ms from receipts order by call_id, seq`
        .execute(db)
        .then((result) => JSON.stringify(result.rows));
    try {
      const migrator = createMigrator(connection);
      // Seeded through today's stores, then stepped down to the schema before 0004.
      await applyMigrations(migrator);
      await publishRuntime(storage);
      await storage.runs.insert(runRecord("r1"));
      await storage.calls.insertMany([callRecord("r1", "c1"), callRecord("r1", "c2", { position: 1 })]);
      await applyMigrations(migrator, (m) => m.migrateTo("0003_runtime"));
      const stored = [
        receiptRecord("c1", "acc", 1, { kind: "accepted", body_text: '{"receipt_id":"acc", "n": 1.0E+2}' }),
        receiptRecord("c1", "p-\u00e9-\u{1f600}", 2),
        receiptRecord("c2", "acc", 1, { kind: "accepted", claim_id: "clm9", executor_id: "e9", applied: false }),
      ];
      await db.insertInto("receipts").values(stored.map(oldSchemaReceipt)).execute();
      const before = await receiptRows();

      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0004_receipts_per_claim")),
        current: LATEST,
      });
      expect(await receiptRows()).toBe(before);
      for (const receipt of stored) {
        expect(await storage.receipts.get(receipt.call_id, receipt.claim_id, receipt.receipt_id)).toEqual(receipt);
      }
      // Another claim may now use a receipt ID of an earlier claim on the same call; the same claim may not.
      const later = receiptRecord("c1", "acc", 3, { kind: "accepted", claim_id: "clm2", executor_id: "e2" });
      // (Numbered after the call's two stored receipts: seq 3.)
      await expect(storage.receipts.insertNext(later)).resolves.toBeUndefined();
      await expect(storage.receipts.insertNext({ ...later, body_text: "again" })).rejects.toThrow(
        StoredStateChangedError,
      );
      expect(await storage.receipts.listByCall("c1")).toEqual([stored[0], stored[1], later]);

      // Down refuses while two claims of a call share an ID, and goes back to one ID per call otherwise.
      const down = (m: Migrator) => m.migrateTo("0003_runtime");
      await expect(applyMigrations(migrator, down)).rejects.toThrow(/0004_receipts_per_claim/);
      await db.deleteFrom("receipts").where("claim_id", "=", "clm2").execute();
      expect(await applyMigrations(migrator, down)).toEqual({ applied: [], current: "0003_runtime" });
      expect(await receiptRows()).toBe(before);
    } finally {
      await storage.close();
      await db.destroy();
      await database.dispose();
    }
  });

  it("0018 keeps every run event as it was (SQLite: rebuilt without rowid); down goes back", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    const storage = await openStorage(database.url, { migrate: false });
    const eventRows = () =>
      sql`select run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id from run_events order by run_id, seq`
        .execute(db)
        .then((result) => JSON.stringify(result.rows));
    const tableSql = () =>
      dialect === "sqlite"
        ? sql<{ sql: string }>`select sql from sqlite_master where name = 'run_events'`
            .execute(db)
            .then((result) => result.rows[0]?.sql ?? "")
        : Promise.resolve("");
    try {
      const migrator = createMigrator(connection);
      await applyMigrations(migrator, (m) => m.migrateTo("0017_receipt_result_references"));
      await publishRuntime(storage);
      await storage.runs.insert(runRecord("r1"));
      await storage.runs.insert(runRecord("r2"));
      await storage.runEvents.append("r1", [{ kind: "run.status", data_json: '{"n":12345678901234567890}' }], 1_000);
      await storage.runEvents.append("r1", [{ kind: "history.item", history_seq: 0 }], 2_000);
      await storage.runEvents.append("r2", [{ kind: "run.status", ref_id: "r2", snapshot_json: "{}" }], 3_000);
      const before = await eventRows();
      expect(JSON.parse(before)).toHaveLength(3);

      const to0018 = (m: Migrator) => m.migrateTo("0018_run_events_without_rowid");
      expect(await applyMigrations(migrator, to0018)).toEqual({
        applied: ["0018_run_events_without_rowid"],
        current: "0018_run_events_without_rowid",
      });
      expect(await eventRows()).toBe(before);
      if (dialect === "sqlite") expect((await tableSql()).toLowerCase()).toContain("without rowid");
      // Appending goes on after the last seq.
      expect(await storage.runEvents.append("r1", [{ kind: "run.status", data_json: "{}" }], 4_000)).toEqual([3]);
      await db.deleteFrom("run_events").where("seq", "=", 3).execute();

      const down = (m: Migrator) => m.migrateTo("0017_receipt_result_references");
      expect(await applyMigrations(migrator, down)).toEqual({ applied: [], current: "0017_receipt_result_references" });
      expect(await eventRows()).toBe(before);
      if (dialect === "sqlite") expect((await tableSql()).toLowerCase()).not.toContain("without rowid");
    } finally {
      await storage.close();
      await db.destroy();
      await database.dispose();
    }
  });
  it("0022 keeps old receipts whole and readable, stores new ones without their envelope; down restores every body", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    const storage = await openStorage(database.url, { migrate: false });
    const grant = Buffer.alloc(32, 7);
    const envelope = (receipt: Pick<ReceiptRecord, "executor_id" | "claim_id" | "receipt_id" | "kind">) =>
      `{"executor_id":${JSON.stringify(receipt.executor_id)},"claim_id":${JSON.stringify(receipt.claim_id)},` +
      `"grant":"${grant.toString("base64url")}","receipt_id":${JSON.stringify(receipt.receipt_id)},"kind":${JSON.stringify(receipt.kind)}`;
    const rawRows = () =>
      sql<{ receipt_id: string; body_text: string; body_grant?: Uint8Array | null; result_at: unknown }>`
        select receipt_id, body_text, body_grant, result_at from receipts order by seq`
        .execute(db)
        .then((result) => result.rows);
    const bodyRows = () =>
      sql`select call_id, receipt_id, seq, kind, executor_id, claim_id, body_text, result_seq, result_at, result_from,
            result_length from receipts order by call_id, seq`
        .execute(db)
        .then((result) => JSON.stringify(result.rows));
    try {
      const migrator = createMigrator(connection);
      await applyMigrations(migrator, (m) => m.migrateTo("0021_runs_ready"));
      await publishRuntime(storage);
      await storage.runs.insert(runRecord("r1"));
      await storage.calls.insertMany([callRecord("r1", "c1")]);
      // A receipt written before, its body opening with the usual envelope: it stays whole.
      const old = receiptRecord("c1", "old-\u00e9", 1, { kind: "accepted" });
      const oldReceipt = { ...old, body_text: `${envelope(old)}}` };
      const digest = Buffer.from(oldReceipt.body_digest.slice("sha256:".length), "hex");
      await db
        .insertInto("receipts")
        .values({ ...oldReceipt, applied: 1, body_digest: digest })
        .execute();

      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0022_receipt_envelopes")),
        current: LATEST,
      });
      expect((await rawRows())[0]).toMatchObject({ body_text: oldReceipt.body_text, body_grant: null });
      expect(await storage.receipts.get("c1", old.claim_id, old.receipt_id)).toEqual(oldReceipt);

      // New receipts: one with the envelope, one with the envelope and a result the history holds.
      const progress = receiptRecord("c1", "p", 2);
      const progressReceipt = { ...progress, body_text: `${envelope(progress)},"progress":{"done":0.5}}` };
      await expect(storage.receipts.insertNext(progressReceipt)).resolves.toBeUndefined();
      const result = `{"rows":[${Array.from({ length: 20 }, (_, i) => i).join(",")}],"text":"中文 🚀"}`;
      await db
        .insertInto("execution_history")
        .values({ run_id: "r1", seq: 9, item_json: `{"type":"tool_result","result":${result}}`, created_at_ms: 1 })
        .execute();
      const done = receiptRecord("c1", "done", 3, { kind: "completed", answer_json: null });
      const doneReceipt = { ...done, body_text: `${envelope(done)},"result":${result}}` };
      const at = doneReceipt.body_text.indexOf(result);
      const reference = { seq: 9, at, from: '{"type":"tool_result","result":'.length, length: result.length };
      const withReference: NewReceipt = { ...doneReceipt, result_reference: reference };
      await expect(storage.receipts.insertNext(withReference)).resolves.toBeUndefined();
      const raw = await rawRows();
      expect(raw.map((row) => row.body_text)).toEqual([
        oldReceipt.body_text,
        ',"progress":{"done":0.5}}',
        ',"result":}',
      ]);
      expect(raw.map((row) => (row.body_grant == null ? null : Buffer.from(row.body_grant)))).toEqual([
        null,
        grant,
        grant,
      ]);
      expect(Number(raw[2]?.result_at)).toBe(',"result":'.length);
      expect(await storage.receipts.listByCall("c1")).toEqual([oldReceipt, progressReceipt, doneReceipt]);

      // Down: every body whole again, the result's place moved by the envelope's length; up again reads the same.
      const down = (m: Migrator) => m.migrateTo("0021_runs_ready");
      expect(await applyMigrations(migrator, down)).toEqual({ applied: [], current: "0021_runs_ready" });
      const columns = await sql<{
        body_text: string;
        result_at: unknown;
      }>`select body_text, result_at from receipts order by seq`
        .execute(db)
        .then((rows) => rows.rows);
      expect(columns.map((row) => row.body_text)).toEqual([
        oldReceipt.body_text,
        progressReceipt.body_text,
        doneReceipt.body_text.replace(result, ""),
      ]);
      expect(Number(columns[2]?.result_at)).toBe(at);
      const afterDown = await bodyRows();
      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0022_receipt_envelopes")),
        current: LATEST,
      });
      expect(await bodyRows()).toBe(afterDown);
      expect(await storage.receipts.listByCall("c1")).toEqual([oldReceipt, progressReceipt, doneReceipt]);
    } finally {
      await storage.close();
      await db.destroy();
      await database.dispose();
    }
  });

  it("0019 stores own-run references as '', NULL answers and binary digests, reads every old row as before; down goes back", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    const storage = await openStorage(database.url, { migrate: false });
    const eventRows = () =>
      sql`select run_id, seq, kind, data_json, history_seq, created_at_ms, ref_id from run_events order by run_id, seq`
        .execute(db)
        .then((result) => JSON.stringify(result.rows));
    const receiptRows = () =>
      sql`select call_id, receipt_id, seq, run_id, kind, executor_id, claim_id, body_text, answer_json,
            applied, created_at_ms from receipts order by call_id, seq`
        .execute(db)
        .then((result) => JSON.stringify(result.rows));
    const tableSql = () =>
      dialect === "sqlite"
        ? sql<{ sql: string }>`select sql from sqlite_master where name = 'receipts'`
            .execute(db)
            .then((result) => result.rows[0]?.sql ?? "")
        : Promise.resolve("");
    try {
      const migrator = createMigrator(connection);
      await applyMigrations(migrator, (m) => m.migrateTo("0018_run_events_without_rowid"));
      await publishRuntime(storage);
      await storage.runs.insert(runRecord("r1"));
      await storage.runs.insert(runRecord("r2"));
      await storage.calls.insertMany([callRecord("r1", "c1")]);
      // Rows as the schema before wrote them: a run.status event repeats its run's ID, every receipt its answer.
      await db
        .insertInto("run_events")
        .values([
          {
            run_id: "r1",
            seq: 1,
            kind: "run.status",
            data_json: "{}",
            history_seq: null,
            created_at_ms: 1,
            ref_id: "r1",
          },
          {
            run_id: "r1",
            seq: 2,
            kind: "run.status",
            data_json: '{"old":1}',
            history_seq: null,
            created_at_ms: 2,
            ref_id: null,
          },
          {
            run_id: "r1",
            seq: 3,
            kind: "tool_call.status",
            data_json: "{}",
            history_seq: null,
            created_at_ms: 3,
            ref_id: "c1",
          },
          {
            run_id: "r2",
            seq: 1,
            kind: "run.status",
            data_json: "{}",
            history_seq: null,
            created_at_ms: 4,
            ref_id: "r1",
          },
        ])
        .execute();
      const stored = [
        receiptRecord("c1", "acc", 1, { kind: "accepted" }),
        receiptRecord("c1", "p-\u00e9", 2, { answer_json: '{"receipt_id":"p-\u00e9","replayed":false}' }),
      ];
      await db.insertInto("receipts").values(stored.map(oldSchemaReceipt)).execute();
      const events = async () => ({
        r1: await storage.runEvents.listAfter("r1", 0, 10),
        r2: await storage.runEvents.listAfter("r2", 0, 10),
      });
      const eventsBefore = await events();
      const rowsBefore = await eventRows();
      const receiptsBefore = await receiptRows();

      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0019_receipt_answers_and_run_refs")),
        current: LATEST,
      });
      // Only the own-run reference changed; every event reads as before, every receipt is as it was.
      const refs = (JSON.parse(await eventRows()) as { ref_id: string | null }[]).map((row) => row.ref_id);
      expect(refs).toEqual(["", null, "c1", "r1"]);
      expect(await events()).toEqual(eventsBefore);
      expect(await receiptRows()).toBe(receiptsBefore);
      for (const receipt of stored) {
        expect(await storage.receipts.get(receipt.call_id, receipt.claim_id, receipt.receipt_id)).toEqual(receipt);
      }
      if (dialect === "sqlite") expect((await tableSql()).toLowerCase()).toContain("without rowid");
      const digests = () =>
        sql<{ body_digest: unknown }>`select body_digest from receipts order by seq`
          .execute(db)
          .then((result) => result.rows.map((row) => row.body_digest));
      expect(await digests()).toEqual(
        stored.map((receipt) => Buffer.from(receipt.body_digest.slice("sha256:".length), "hex")),
      );
      // A new receipt may store no answer (a replay rebuilds it).
      const rebuilt = receiptRecord("c1", "done", 3, { kind: "completed", answer_json: null });
      await expect(storage.receipts.insertNext(rebuilt)).resolves.toBeUndefined();
      expect(await storage.receipts.get("c1", rebuilt.claim_id, "done")).toEqual(rebuilt);

      const down = (m: Migrator) => m.migrateTo("0018_run_events_without_rowid");
      expect(await applyMigrations(migrator, down)).toEqual({ applied: [], current: "0018_run_events_without_rowid" });
      expect(await eventRows()).toBe(rowsBefore);
      expect(await events()).toEqual(eventsBefore);
      expect(await digests()).toEqual([...stored, rebuilt].map((receipt) => receipt.body_digest));
      // (Read raw: today's store reads the schema 0019 made.)
      const answer = await sql<{ answer_json: string }>`select answer_json from receipts where receipt_id = 'done'`
        .execute(db)
        .then((result) => result.rows[0]?.answer_json);
      expect(JSON.parse(answer ?? "null")).toEqual({
        receipt_id: "done",
        kind: "completed",
        replayed: false,
        applied: true,
        call_status: "pending",
        run_status: "waiting_for_tools",
      });
      if (dialect === "sqlite") expect((await tableSql()).toLowerCase()).not.toContain("without rowid");
    } finally {
      await storage.close();
      await db.destroy();
      await database.dispose();
    }
  });

  it("0023: down puts every batched run event in a row of its own, reading as before; up again reads the same", async () => {
    const database = await testDatabaseUrl(dialect);
    const connection = await connectDatabase(database.url);
    const { db } = connection;
    const storage = await openStorage(database.url, { migrate: false });
    const before = MIGRATION_NAMES[MIGRATION_NAMES.indexOf("0023_run_event_batches") - 1] as string;
    const kinds = () =>
      sql<{ kind: string }>`select kind from run_events order by run_id, seq`
        .execute(db)
        .then((result) => result.rows.map((row) => row.kind));
    try {
      const migrator = createMigrator(connection);
      await applyMigrations(migrator);
      await publishRuntime(storage);
      await storage.runs.insert(runRecord("r1"));
      await storage.calls.insertMany([callRecord("r1", "c1")]);
      const [item] = await storage.transaction((stores) => stores.history.append("r1", ['{"type":"input"}'], 5));
      await storage.transaction(async (stores) => {
        await stores.runEvents.appendAtCommit("r1", [runStatusEvent(runRecord("r1", { updated_at_ms: 6 }))], 6);
        await stores.runEvents.appendAtCommit("r1", [{ kind: "history.item", history_seq: item as number }], 6);
        await stores.runEvents.appendAtCommit("r1", [toolCallEvent(callRecord("r1", "c1"))], 7);
        await stores.runEvents.appendAtCommit("r1", [{ kind: "model.request", data_json: '{"n":1}' }], 7);
        await stores.runEvents.appendAtCommit("r1", [runStatusEvent(runRecord("r1", { updated_at_ms: 5 }))], 8);
        await stores.runEvents.appendAtCommit("r1", [{ kind: "history.item", history_seq: item as number }], 8);
      });
      const events = () => storage.runEvents.listAfter("r1", 0, 10);
      const read = await events();
      expect(read.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await kinds()).toEqual(["batch", "model.request", "batch"]);

      expect(await applyMigrations(migrator, (m) => m.migrateTo(before))).toEqual({ applied: [], current: before });
      expect(await kinds()).toEqual([
        "run.status",
        "history.item",
        "tool_call.status",
        "model.request",
        "run.status",
        "history.item",
      ]);
      expect(await events()).toEqual(read);
      expect(await applyMigrations(migrator)).toEqual({
        applied: MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf("0023_run_event_batches")),
        current: LATEST,
      });
      expect(await events()).toEqual(read);
    } finally {
      await storage.close();
      await db.destroy();
      await database.dispose();
    }
  });
});
