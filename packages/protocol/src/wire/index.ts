/**
 * @toolhost/protocol/wire — the HTTP wire schemas, declared once in TypeBox. The server validates
 * requests and generates its OpenAPI document from them; clients get the derived TypeScript types.
 * One file per API area; `common.ts` holds the building blocks and explains the pattern.
 */

export {
  Agent,
  AgentIdParams,
  AgentList,
  AgentVersion,
  AgentVersionList,
  AgentVersionParams,
  CreateAgentRequest,
  CreateAgentVersionRequest,
  INSTRUCTIONS_MAX_LENGTH,
} from "./agents.js";
export { Binding, BindingIdParams, BindingList, CreateBindingRequest, DisplayName } from "./bindings.js";
export {
  CallPathParams,
  ClaimAnswer,
  ClaimedCall,
  ClaimRequest,
  GRANT_MAX_LENGTH,
  RECEIPT_ID_MAX_LENGTH,
  ReceiptAnswer,
  ReceiptRequest,
} from "./calls.js";
export {
  AnyObject,
  ID_MAX_LENGTH,
  ID_PATTERN,
  Id,
  NO_NUL_PATTERN,
  Nullable,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  Page,
  PageQuery,
  StoredText,
  Timestamp,
  WireObject,
} from "./common.js";
export { ContextPreview } from "./context-preview.js";
export {
  BindingDiagnostics,
  DiagnosticCheck,
  DiagnosticsParams,
  OnlineExecutor,
  VerifiedExecution,
} from "./diagnostics.js";
export { CheckProblem, DryRunAnswer, DryRunRequest, MOCK_RECEIPTS_MAX } from "./dry-run.js";
export { ErrorBody, ErrorDetail } from "./errors.js";
export {
  BatchedReceipt,
  ExecutorBatchLimits,
  PENDING_CLAIM_MAX,
  RECEIPTS_BATCH_MAX,
  ReceiptBatchAnswer,
  ReceiptBatchItemAnswer,
  ReceiptBatchRequest,
} from "./executor-batch.js";
export { ExecutorList, ExecutorSummary } from "./executor-list.js";
export {
  CallReport,
  CancellationRequest,
  ConnectionRequest,
  ConnectRequest,
  DisconnectAnswer,
  EXECUTOR_BINDINGS_MAX,
  EXECUTOR_TOOL_NAMES_MAX,
  ExecutorConnection,
  ExecutorIdParams,
  HeartbeatAnswer,
  PENDING_WAIT_MS_MAX,
  PendingAnswer,
  PendingCall,
  PendingQuery,
  REPORT_ACTIONS,
  REPORT_CALLS_MAX,
  REPORT_REASONS,
  REPORT_RECEIPT_IDS_MAX,
  REPORTED_CALL_STATES,
  ReportAnswer,
  ReportedCall,
  ReportRequest,
} from "./executors.js";
export { Health, Readiness } from "./health.js";
export {
  CreatedKey,
  CreateKeyRequest,
  IdScope,
  KeyIdParams,
  KeyInfo,
  KeyList,
  RevokedKey,
  SCOPE_NAMES,
  ScopeName,
} from "./keys.js";
export {
  AnthropicModelSettings,
  ModelSettings,
  OpenAiModelSettings,
  ScriptedModelSettings,
  ScriptedToolCall,
  ScriptStep,
} from "./model-settings.js";
export { CallReceipts, StoredReceipt } from "./receipt-log.js";
export {
  CallCancelRequested,
  CallStatus,
  CancelCallRequest,
  CancelledRun,
  CancelRunRequest,
  CompensateRequest,
  CreateRunRequest,
  HistoryItem,
  HistoryPage,
  ModelRequest,
  ModelRequestList,
  RecentRunList,
  RecentRunsQuery,
  Run,
  RunCallParams,
  RunError,
  RunEventsHeaders,
  RunIdParams,
  RunList,
  RunStatus,
  ToolCall,
  ToolCallList,
} from "./runs.js";
export { CreateSessionRequest, Session, SessionIdParams, SessionList } from "./sessions.js";
export {
  CreatedToolset,
  CreateToolsetRequest,
  CreateToolsetVersionRequest,
  Tool,
  ToolInput,
  Toolset,
  ToolsetIdParams,
  ToolsetList,
  ToolsetVersion,
  ToolsetVersionList,
  ToolsetVersionParams,
  VERSION_NUMBER_MAX,
  VersionNumber,
} from "./toolsets.js";
