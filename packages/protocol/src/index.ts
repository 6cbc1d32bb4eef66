/**
 * @toolhost/protocol — the pure core shared by the server, the runner, the CLI and the console:
 * lossless JSON, the exact byte measure, the arguments digest, the context projection,
 * configuration validation and the error codes. No I/O, no clock, no randomness.
 */

export {
  CALL_STATUSES,
  type CallStatus,
  FINAL_CALL_STATUSES,
  isCallStatus,
  SETTLED_CALL_STATUSES,
} from "./calls/call-status.js";
export {
  CALL_EVENTS,
  CALL_TRANSITIONS,
  type CallEvent,
  type CallTransition,
  transitionCall,
} from "./calls/call-transitions.js";
export {
  FINAL_RECEIPT_KINDS,
  isReceiptKind,
  RECEIPT_EVENTS,
  RECEIPT_KINDS,
  type ReceiptKind,
} from "./calls/receipt-kind.js";
export { type FreezableCall, runFreezesCall } from "./calls/run-freeze.js";
// Agent versions: model settings (one validator per provider) and the context window.
export { MAX_CONTEXT_TOKENS } from "./config/context-window.js";
export {
  type CompiledSchema,
  compileJsonSchema,
  JSON_SCHEMA_DIALECT,
  type JsonSchemaObject,
  type SchemaCheck,
} from "./config/json-schema.js";
export {
  BASE_URL_MAX_LENGTH,
  CONNECTION_ID_PATTERN,
  CONNECTION_PROVIDERS,
  type ConnectionProvider,
  ENV_NAME_PATTERN,
  MAX_CONNECTIONS,
  type ModelConnection,
  type ModelConnections,
  validateModelConnections,
} from "./config/model-connection.js";
export {
  isModelProvider,
  MODEL_PROVIDERS,
  type ModelProvider,
  type ModelSettings,
  validateModelSettings,
} from "./config/model-settings.js";
export {
  type AnthropicModelSettings,
  checkOutputWithinWindow,
  type HttpModelProvider,
  type OpenAiModelSettings,
  PROVIDER_DEFAULTS,
  PROVIDER_MODEL_LIMITS,
  type ProviderModelSettings,
} from "./config/provider-model.js";
export { SCHEMA_LIMITS, type SchemaLimit } from "./config/schema-limits.js";
export { PATTERN_LIMITS } from "./config/schema-pattern.js";
export {
  SCRIPTED_MODEL_LIMITS,
  type ScriptedMessageStep,
  type ScriptedModelSettings,
  type ScriptedToolCall,
  type ScriptedToolCallsStep,
  type ScriptStep,
} from "./config/scripted-model.js";
export {
  type ArgumentError,
  type ArgumentsValidation,
  MAX_ARGUMENT_ERRORS,
  validateArguments,
} from "./config/tool-arguments.js";
export {
  REMOVED_TOOL_FIELDS,
  TIMEOUT_MS,
  TOOL_DEFINITION_FIELDS,
  TOOL_NAME_PATTERN,
  type ToolDefinition,
  validateToolDefinition,
} from "./config/tool-definition.js";
export { isToolEffect, TOOL_EFFECTS, type ToolEffect } from "./config/tool-effect.js";
export {
  MAX_TOOLS_PER_TOOLSET,
  referencedBindingIds,
  validateToolset,
  validateToolsetStepwise,
} from "./config/toolset.js";
export { VALIDATION_WORK_BUDGET } from "./config/validation-cost.js";
export { argumentsDigest } from "./digest.js";
export { ERROR_CODES, type ErrorBody, type ErrorCode, isProtocolError, ProtocolError } from "./errors.js";
export { type CompactOptions, compact, quoteString } from "./json/compact.js";
export { MAX_INTEGER_DIGITS, MAX_JSON_DEPTH } from "./json/limits.js";
export { measure, quotedStringBytes } from "./json/measure.js";
export { measureText } from "./json/measure-text.js";
export { formatFloat } from "./json/number.js";
export { compareCodePoints } from "./json/order.js";
export { parseJson } from "./json/parse.js";
export { pointerAppend } from "./json/pointer.js";
export { utf8Length } from "./json/utf8.js";
export {
  isJsonObject,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  objectEntries,
  objectGet,
  type PlainJsonObject,
} from "./json/value.js";
export { checkBudget, RESULT_CONTEXT_BYTES } from "./projection/budget.js";
export {
  CANCELLED_RESULT,
  type ContextPreview,
  EXPIRED_RESULT,
  TEXT_OMISSION_MARKER,
  TRUNCATION_NOTICE,
  UNKNOWN_OUTCOME_RESULT,
} from "./projection/context-preview.js";
export { cutHeadTail, type HeadTailCut } from "./projection/head-tail.js";
export { MeasuredResult } from "./projection/measured-result.js";
export {
  collectPreservedFields,
  isPreservedKey,
  PRESERVED_KEYS,
  PRESERVED_STRING_MAX_BYTES,
  PRESERVED_SUFFIXES,
} from "./projection/preserved-fields.js";
export { projectResult, projectUnknownOutcome } from "./projection/project-result.js";
export { projectProtocolMessage } from "./projection/protocol-message.js";
export { isResultType, RESULT_TYPES, type ResultType } from "./projection/result-type.js";
export { multimodalParts } from "./projection/truncate-multimodal.js";
export {
  CALL_REJECTIONS,
  type CallRejection,
  invalidArgumentsResult,
  tooManyCallsResult,
  unknownToolResult,
} from "./runs/call-rejection.js";
export {
  RUN_EVENTS,
  RUN_STATUSES,
  RUN_TRANSITIONS,
  type RunEvent,
  type RunStatus,
  type RunTransition,
  TERMINAL_RUN_STATUSES,
  transitionRun,
} from "./runs/run-status.js";
export { readTraceparent, type TraceparentParts, writeTraceparent } from "./traceparent.js";
