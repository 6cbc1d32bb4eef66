/**
 * The outcome of one HTTP request, as a value: an answer read against its wire schema, a 2xx answer
 * that could not be read, a refusal with the server's error code, or no answer at all. Flows branch
 * on these instead of catching exceptions, so "the server said no", "the server could not be reached"
 * and "something answered that is not the server" can never be confused.
 */

import type { RunnerError } from "../errors.js";

/** What one request came to; `T` is the answer's wire type. */
export type HttpOutcome<T = unknown> =
  /** A 2xx answer: its exact text, and its body read and checked against the route's wire schema. */
  | { readonly type: "answer"; readonly status: number; readonly text: string; readonly body: T }
  /** A 2xx answer the runner cannot read (a proxy's page, a truncated body): a RunnerError `malformed_answer`. */
  | { readonly type: "malformed"; readonly status: number; readonly error: RunnerError }
  /** A non-2xx answer with the docs/http-api.md error code (`http_<status>` when the body had none). */
  | {
      readonly type: "refused";
      readonly status: number;
      readonly code: string;
      readonly message: string;
      readonly details: Record<string, unknown> | undefined;
    }
  /** No answer: connection refused or reset, timeout, or the request was aborted. */
  | { readonly type: "unreachable"; readonly message: string; readonly aborted: boolean };

/** True for refusals worth retrying: server errors, overload and timeouts. */
export function isTransientRefusal(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

/** The error code of a non-2xx answer's text (`http_<status>` when it carries none). */
export function refusalOf(status: number, text: string): Extract<HttpOutcome, { type: "refused" }> {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
    const error = body.error;
    if (error !== undefined && typeof error.code === "string") {
      return {
        type: "refused",
        status,
        code: error.code,
        message: typeof error.message === "string" ? error.message : "",
        details:
          typeof error.details === "object" && error.details !== null
            ? (error.details as Record<string, unknown>)
            : undefined,
      };
    }
  } catch {
    // Not JSON (a proxy's error page): fall through to the status code.
  }
  return { type: "refused", status, code: `http_${status}`, message: text.slice(0, 200), details: undefined };
}
