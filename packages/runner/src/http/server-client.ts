/**
 * The runner's HTTP client for the toolhost API (global fetch; no server code is imported: the
 * runner speaks only the wire protocol). Every method answers an HttpOutcome value, its 2xx body
 * read through the route's checked reader (never a bare JSON.parse). Bodies the runner journaled are
 * sent as their exact text.
 */

import type {
  DisconnectAnswer,
  ExecutorConnection,
  HeartbeatAnswer,
  ReceiptAnswer,
  ReportedCall,
} from "@toolhost/protocol/wire";
import { ANSWER_READERS, type AnswerReader, answerOutcome } from "./answer-reader.js";
import { type HttpOutcome, refusalOf } from "./http-outcome.js";

/** How the client reaches the server. */
export interface ServerClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch: typeof fetch;
  readonly requestTimeoutMs: number;
}

/** One journaled receipt of a batch: its call and its exact body text. */
export interface BatchedReceiptText {
  readonly runId: string;
  readonly callId: string;
  readonly bodyText: string;
}

/** Extra settings of one request. */
interface RequestSettings {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** The toolhost API, as an executor uses it. */
export class ServerClient {
  readonly #options: ServerClientOptions;

  constructor(options: ServerClientOptions) {
    this.#options = options;
  }

  /** `POST /v1/executors/connect`, declaring `toolNames` (null: declares none). */
  connect(
    executorId: string,
    bindingIds: readonly string[],
    toolNames: readonly string[] | null,
    signal?: AbortSignal,
  ): Promise<HttpOutcome<ExecutorConnection>> {
    const body =
      toolNames === null
        ? { executor_id: executorId, binding_ids: bindingIds }
        : { executor_id: executorId, binding_ids: bindingIds, tool_names: toolNames };
    return this.#send(ANSWER_READERS.connect, "POST", "/v1/executors/connect", JSON.stringify(body), { signal });
  }

  /** `POST /v1/executors/{id}/heartbeat`. */
  heartbeat(executorId: string, connectionId: string, signal?: AbortSignal): Promise<HttpOutcome<HeartbeatAnswer>> {
    const path = `/v1/executors/${segment(executorId)}/heartbeat`;
    return this.#send(ANSWER_READERS.heartbeat, "POST", path, connectionBody(connectionId), { signal });
  }

  /** `GET /v1/executors/{id}/pending` (long-poll up to `waitMs`), claiming up to `claim` candidates when given. */
  pending(
    executorId: string,
    connectionId: string,
    limit: number,
    waitMs: number,
    signal?: AbortSignal,
    claim?: number,
  ) {
    const query = new URLSearchParams({ connection_id: connectionId, limit: String(limit), wait_ms: String(waitMs) });
    if (claim !== undefined) query.set("claim", String(claim));
    return this.#send(
      ANSWER_READERS.pending,
      "GET",
      `/v1/executors/${segment(executorId)}/pending?${query}`,
      undefined,
      {
        // The server may hold the request for waitMs: give it that on top of the usual limit.
        timeoutMs: waitMs + this.#options.requestTimeoutMs,
        signal,
      },
    );
  }

  /** `POST /v1/executors/{id}/calls/report`. */
  report(executorId: string, connectionId: string, calls: readonly ReportedCall[], signal?: AbortSignal) {
    const body = JSON.stringify({ connection_id: connectionId, calls });
    return this.#send(ANSWER_READERS.report, "POST", `/v1/executors/${segment(executorId)}/calls/report`, body, {
      signal,
    });
  }

  /** `POST /v1/executors/{id}/disconnect`. */
  disconnect(executorId: string, connectionId: string): Promise<HttpOutcome<DisconnectAnswer>> {
    const path = `/v1/executors/${segment(executorId)}/disconnect`;
    return this.#send(ANSWER_READERS.disconnect, "POST", path, connectionBody(connectionId));
  }

  /** `POST /v1/runs/{run_id}/tool-calls/{call_id}/claim`. */
  claim(runId: string, callId: string, executorId: string, connectionId: string, signal?: AbortSignal) {
    const body = JSON.stringify({ executor_id: executorId, connection_id: connectionId });
    return this.#send(ANSWER_READERS.claim, "POST", `${callPath(runId, callId)}/claim`, body, { signal });
  }

  /** `POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts` with the journaled body text. */
  receipt(runId: string, callId: string, bodyText: string, signal?: AbortSignal): Promise<HttpOutcome<ReceiptAnswer>> {
    return this.#send(ANSWER_READERS.receipt, "POST", `${callPath(runId, callId)}/receipts`, bodyText, { signal });
  }

  /** `POST /v1/executors/{id}/receipts` with the journaled body texts, in order. */
  receiptBatch(executorId: string, receipts: readonly BatchedReceiptText[]) {
    const items = receipts.map(
      (r) => `{"run_id":${JSON.stringify(r.runId)},"call_id":${JSON.stringify(r.callId)},"receipt":${r.bodyText}}`,
    );
    const body = `{"receipts":[${items.join(",")}]}`;
    return this.#send(ANSWER_READERS.receiptBatch, "POST", `/v1/executors/${segment(executorId)}/receipts`, body);
  }

  async #send<T>(
    reader: AnswerReader<T>,
    method: string,
    path: string,
    body: string | undefined,
    settings: RequestSettings = {},
  ): Promise<HttpOutcome<T>> {
    // A ref'd timer, not AbortSignal.timeout(): an in-flight request must keep the process alive until
    // it is answered or times out (an unref'd timeout let a process exit mid-request, code 13).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs ?? this.#options.requestTimeoutMs);
    const outer = settings.signal;
    const onAbort = (): void => controller.abort();
    if (outer?.aborted === true) controller.abort();
    else outer?.addEventListener("abort", onAbort, { once: true });
    const headers: Record<string, string> = { authorization: `Bearer ${this.#options.apiKey}` };
    if (body !== undefined) headers["content-type"] = "application/json; charset=utf-8";
    try {
      const response = await this.#options.fetch(`${this.#options.baseUrl}${path}`, {
        method,
        headers,
        body,
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.status < 200 || response.status >= 300) return refusalOf(response.status, text);
      return answerOutcome(reader, response.status, text, response.headers.get("content-type"));
    } catch (error) {
      const aborted = outer?.aborted === true;
      const message = timedOut ? "request timed out" : error instanceof Error ? describe(error) : String(error);
      return { type: "unreachable", message, aborted } as const;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    }
  }
}

function describe(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}

function segment(id: string): string {
  return encodeURIComponent(id);
}

function callPath(runId: string, callId: string): string {
  return `/v1/runs/${segment(runId)}/tool-calls/${segment(callId)}`;
}

function connectionBody(connectionId: string): string {
  return JSON.stringify({ connection_id: connectionId });
}
