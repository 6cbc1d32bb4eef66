/**
 * @toolhost/cli — the `toolhost` command. `main` runs it with any streams; the pieces below are the
 * reusable parts: strict UTF-8 input reading, the refusal and failure line formats, ordered bounded
 * reading, and the commands' cores.
 */

export { parseBudgetOption } from "./budget-option.js";
export { type CliIo, processIo } from "./cli-io.js";
export type { CommandContext, CommandDefinition } from "./command-context.js";
export { CommandFailure, failureLine, runReported } from "./command-failure.js";
export {
  DEFAULT_SERVER_URL,
  type DryRunOptions,
  dryRunBodyText,
  invalidLines,
  RESULT_RECEIPT_ID,
  runDryRun,
} from "./commands/dry-run.js";
export {
  createKeyRequestOf,
  keyLine,
  listOption,
  runKeysCreate,
  runKeysList,
  runKeysRevoke,
} from "./commands/keys.js";
export { MEASURE_READ_AHEAD, type MeasureOutcome, measureInput, measureLine, runMeasure } from "./commands/measure.js";
export { migrationReportText, runMigrate } from "./commands/migrate.js";
export { contextPreviewJson, type PreviewOptions, previewText, runPreview } from "./commands/preview.js";
export { parsePortOption, runServe, type ServeOptions } from "./commands/serve.js";
export { addDatabaseOption, type DatabaseOptions, databaseUrlOf, withStorage } from "./database-option.js";
export { EXIT_STATUS, type ExitStatus } from "./exit-status.js";
export { indentJson } from "./indent-json.js";
export { firstInvalidUtf8Offset } from "./invalid-utf8.js";
export { buildProgram, COMMANDS, commanderExitStatus, main } from "./main.js";
export { mapInOrder } from "./map-in-order.js";
export { OutputFailure, OutputSink } from "./output-sink.js";
export { decodeUtf8Strict, InputReader, type InputSource, inputSources, STDIN_NAME } from "./read-input.js";
export { displayPointer, PROGRAM_NAME, refusalLine } from "./refusal.js";
export { cliVersion } from "./version.js";
