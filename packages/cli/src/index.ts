/**
 * @toolhost/cli — the `toolhost` command. `main` runs it with any streams; the pieces below are the
 * reusable parts: strict UTF-8 input reading, the refusal line format, ordered bounded reading, and
 * the measure/preview commands' pure cores.
 */

export { parseBudgetOption } from "./budget-option.js";
export { type CliIo, processIo } from "./cli-io.js";
export type { CommandContext, CommandDefinition } from "./command-context.js";
export { MEASURE_READ_AHEAD, type MeasureOutcome, measureInput, measureLine, runMeasure } from "./commands/measure.js";
export { contextPreviewJson, type PreviewOptions, previewText, runPreview } from "./commands/preview.js";
export { EXIT_STATUS, type ExitStatus } from "./exit-status.js";
export { indentJson } from "./indent-json.js";
export { firstInvalidUtf8Offset } from "./invalid-utf8.js";
export { buildProgram, COMMANDS, commanderExitStatus, main } from "./main.js";
export { mapInOrder } from "./map-in-order.js";
export { OutputFailure, OutputSink } from "./output-sink.js";
export { decodeUtf8Strict, InputReader, type InputSource, inputSources, STDIN_NAME } from "./read-input.js";
export { displayPointer, PROGRAM_NAME, refusalLine } from "./refusal.js";
export { cliVersion } from "./version.js";
