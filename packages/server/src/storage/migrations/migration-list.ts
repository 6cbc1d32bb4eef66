/**
 * The numbered migrations, provided statically to Kysely's Migrator (nothing is read from the file
 * system at run time, so the compiled server carries its schema with it). Names sort in apply order.
 */

import type { Migration, MigrationProvider } from "kysely";
import type { Dialect } from "../storage.js";
import { initialMigration } from "./0001-initial.js";
import { resultContextBytesMigration } from "./0002-result-context-bytes.js";
import { runtimeMigration } from "./0003-runtime.js";
import { receiptsPerClaimMigration } from "./0004-receipts-per-claim.js";
import { executorToolNamesMigration } from "./0005-executor-tool-names.js";
import { runOutputJsonMigration } from "./0006-run-output-json.js";
import { toolsetBindingsMigration } from "./0007-toolset-bindings.js";
import { modelsMigration } from "./0008-models.js";
import { callTraceContextMigration } from "./0009-call-trace-context.js";
import { historyLengthTriggerMigration } from "./0010-history-length-trigger.js";
import { runsListIndexesMigration } from "./0011-runs-list-indexes.js";
import { keyConnectionsMigration } from "./0012-key-connections.js";
import { runLimitsMigration } from "./0013-run-limits.js";
import { queueIndexesMigration } from "./0014-queue-indexes.js";
import { runRetentionMigration } from "./0015-run-retention.js";
import { runEventReferencesMigration } from "./0016-run-event-references.js";
import { receiptResultReferencesMigration } from "./0017-receipt-result-references.js";
import { runEventsWithoutRowidMigration } from "./0018-run-events-without-rowid.js";
import { receiptAnswersAndRunRefsMigration } from "./0019-receipt-answers-and-run-refs.js";
import { busyTableAutovacuumMigration } from "./0020-busy-table-autovacuum.js";
import { runsReadyMigration } from "./0021-runs-ready.js";
import { receiptEnvelopesMigration } from "./0022-receipt-envelopes.js";
import { runEventBatchesMigration } from "./0023-run-event-batches.js";
import { bindingCallIndexesMigration } from "./0024-binding-call-indexes.js";

/** Every migration name, oldest first. */
export const MIGRATION_NAMES = [
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
] as const;

/** One migration name. */
export type MigrationName = (typeof MIGRATION_NAMES)[number];

/** The migrations for `dialect`, by name. */
export function migrationsFor(dialect: Dialect): Record<MigrationName, Migration> {
  return {
    "0001_initial": initialMigration(dialect),
    "0002_result_context_bytes": resultContextBytesMigration,
    "0003_runtime": runtimeMigration(dialect),
    "0004_receipts_per_claim": receiptsPerClaimMigration(dialect),
    "0005_executor_tool_names": executorToolNamesMigration,
    "0006_run_output_json": runOutputJsonMigration(dialect),
    "0007_toolset_bindings": toolsetBindingsMigration(dialect),
    "0008_models": modelsMigration(dialect),
    "0009_call_trace_context": callTraceContextMigration,
    "0010_history_length_trigger": historyLengthTriggerMigration(dialect),
    "0011_runs_list_indexes": runsListIndexesMigration,
    "0012_key_connections": keyConnectionsMigration,
    "0013_run_limits": runLimitsMigration,
    "0014_queue_indexes": queueIndexesMigration,
    "0015_run_retention": runRetentionMigration,
    "0016_run_event_references": runEventReferencesMigration,
    "0017_receipt_result_references": receiptResultReferencesMigration,
    "0018_run_events_without_rowid": runEventsWithoutRowidMigration(dialect),
    "0019_receipt_answers_and_run_refs": receiptAnswersAndRunRefsMigration(dialect),
    "0020_busy_table_autovacuum": busyTableAutovacuumMigration(dialect),
    "0021_runs_ready": runsReadyMigration,
    "0022_receipt_envelopes": receiptEnvelopesMigration(dialect),
    "0023_run_event_batches": runEventBatchesMigration,
    "0024_binding_call_indexes": bindingCallIndexesMigration,
  };
}

/** A Kysely MigrationProvider over the static list. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return { getMigrations: async () => migrationsFor(dialect) };
}
