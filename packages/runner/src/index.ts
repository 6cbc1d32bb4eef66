/**
 * @toolhost/runner — ToolRunner, the executor SDK products embed: connect, heartbeat, long-poll,
 * claim, a local durable journal, accept-before-side-effect, outbox redelivery, reconciliation and
 * long-running (deferred) calls. It speaks the toolhost HTTP API only, and reads every answer against
 * the wire schemas.
 */

export {
  type CodeFirstTool,
  defineTool,
  type ToolDefinition,
  type TypedToolCall,
  type TypedToolHandler,
  toolInputsOf,
} from "./code-first-tools.js";
export { RUNNER_RECEIPT_CODES } from "./decisions/handler-outcome.js";
export { CLAIM_REFUSALS, type ClaimRefusal, REFUSAL_ACTIONS } from "./decisions/verify-claim.js";
export {
  BusinessError,
  CancelledError,
  isBusinessError,
  isCancelledError,
  RUNNER_ERROR_CODES,
  RunnerError,
  type RunnerErrorCode,
} from "./errors.js";
export type { RunnerEventMap, RunnerEventName, RunnerListener } from "./events.js";
export { HANDLER_SPAN, RUNNER_TRACER_NAME } from "./handler-tracing.js";
export type { JournalCounts } from "./journal/journal.js";
export {
  JOURNAL_STATES,
  JOURNAL_TRANSITIONS,
  type JournalState,
  OUTBOX_STATES,
  OUTBOX_TRANSITIONS,
  type OutboxState,
} from "./journal/journal-records.js";
export {
  fromPino,
  isRedactedFieldName,
  jsonLinesLogger,
  type LogFields,
  type PinoLikeLogger,
  REDACTED,
  REDACTED_FIELD_NAMES,
  RUNNER_LOG_LEVELS,
  type RunnerLogger,
  type RunnerLogLevel,
  redactFields,
  silentLogger,
} from "./logger.js";
export {
  defaultOperationKey,
  FENCED_EXIT_CODE,
  POLL_WAIT_MS_MAX,
  RUNNER_DEFAULTS,
  type ToolRunnerOptions,
} from "./options.js";
export { type PrometheusRegistry, RUNNER_GAUGES } from "./prometheus-export.js";
export type { ReconcileOutcome, ReconcileResolver, RegisterOptions, ToolHandler } from "./registry.js";
export { RUNNER_STATES, RUNNER_TRANSITIONS, type RunnerState } from "./runner-state.js";
export type { DeferredError, FinishResult } from "./runtime/deferred-calls.js";
export { UNKNOWN_AFTER_RESTART } from "./runtime/reconcile-call.js";
export { RUNNER_COUNTERS, type RunnerCounter, type RunnerStats } from "./stats.js";
export type { ToolCall } from "./tool-call.js";
export type { DeferredHandle, ToolContext } from "./tool-context.js";
export { ToolRunner } from "./tool-runner.js";
export { syncToolsModule, type ToolsSyncRequest } from "./tools-sync.js";
export { runToolsCommand, type ToolsCommandIo } from "./tools-sync-command.js";
export {
  type PublishedToolset,
  type PublishTarget,
  type PublishToolsetOptions,
  publishToolset,
} from "./toolset-publisher.js";
