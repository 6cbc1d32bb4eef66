/**
 * Errors of the runner. Handlers throw `BusinessError` (the product confirms the business failed:
 * a `failed` receipt) or `CancelledError` (the product confirms the task was cancelled: a `cancelled`
 * receipt); any other throw means the outcome is unknown and becomes `reconciliation_required`.
 * `RunnerError` is the runner refusing an API use, or the reason it failed, with a stable code.
 */

/** Stable codes of RunnerError. */
export const RUNNER_ERROR_CODES = {
  /** The constructor options are invalid (the message names the option). */
  invalid_options: "invalid_options",
  /** `register` or `onReconcile` was given a tool name twice, or a bad registration. */
  invalid_registration: "invalid_registration",
  /** `start` was called twice, or after `stop`. */
  invalid_lifecycle: "invalid_lifecycle",
  /** No deferred handle with this ID exists in the journal. */
  unknown_handle: "unknown_handle",
  /** The deferred handle's call already has its final receipt (or was never deferred). */
  handle_finished: "handle_finished",
  /** The call is not running any more: progress or defer after the handler returned. */
  call_finished: "call_finished",
  /** A value cannot be sent as JSON (a function, a symbol, a cycle, a non-finite number). */
  invalid_json: "invalid_json",
  /** The server refused the connection for good (bad key, scope, unknown binding). */
  connect_refused: "connect_refused",
  /** `start()` could not connect within `connectTimeoutMs` (the server unreachable or unreadable meanwhile). */
  connect_timeout: "connect_timeout",
  /** Another process connected with the same executor ID and fenced this one. */
  fenced: "fenced",
  /**
   * The server kept refusing this runner's key or executor (401, 403, 404 of the executor) for
   * `refusalGraceMs`: the key lacks a scope or was revoked. The runner failed; fix the key and restart.
   */
  access_refused: "access_refused",
  /** `publishToolset` was refused by the server (the message holds its answer: a bad definition, a missing scope). */
  publish_refused: "publish_refused",
  /** A 2xx answer the runner cannot read (not JSON, or not the route's wire shape); retried like a server error. */
  malformed_answer: "malformed_answer",
  /**
   * The journal cannot be used: the file is corrupt, a directory, locked by another process past the
   * wait, or another started runner with the same executor ID holds it (the message names the path
   * and the cause). `start()` rejects with it; so do `complete`/`fail`/`progress` of a process that
   * only finishes deferred calls.
   */
  journal_unavailable: "journal_unavailable",
  /** Something threw where nothing should (a bug, or the journal file failing): the runner failed; `cause` holds it. */
  internal_failure: "internal_failure",
} as const;

/** One RunnerError code. */
export type RunnerErrorCode = keyof typeof RUNNER_ERROR_CODES;

/** The runner refusing an API use or a configuration, or why it failed: a stable code and a message. */
export class RunnerError extends Error {
  constructor(
    readonly code: RunnerErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
    this.name = "RunnerError";
  }
}

/** `error` itself when it is a RunnerError, else an `internal_failure` wrapping it (as `cause`). */
export function asRunnerError(error: unknown, where: string): RunnerError {
  if (error instanceof RunnerError) return error;
  const described = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new RunnerError("internal_failure", `${where} threw: ${described}`, { where }, { cause: error });
}

/** A business failure the product confirms: the call is reported `failed` with this code. */
export class BusinessError extends Error {
  constructor(
    /** A stable, snake_case code the model and the product's dashboards can branch on. */
    readonly code: string,
    message: string,
    /** Extra JSON facts sent in the receipt's `error.details`. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "BusinessError";
  }
}

/** A cancellation the product confirms (the business task stopped): the call is reported `cancelled`. */
export class CancelledError extends Error {
  constructor(
    message = "the business task was cancelled",
    /** Extra JSON facts sent in the receipt's `error.details`. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "CancelledError";
  }
}

/** True for a BusinessError, also across duplicated copies of this module. */
export function isBusinessError(value: unknown): value is BusinessError {
  return (
    value instanceof BusinessError || (value instanceof Error && value.name === "BusinessError" && "code" in value)
  );
}

/** True for a CancelledError, also across duplicated copies of this module. */
export function isCancelledError(value: unknown): value is CancelledError {
  return value instanceof CancelledError || (value instanceof Error && value.name === "CancelledError");
}
