/**
 * The console's HTTP client: same-origin requests to the public API under /v1 with the session's key
 * as a bearer token. Typed by the wire schemas of `@toolhost/protocol/wire` (types only: nothing of
 * the protocol package reaches the browser bundle).
 */

import type {
  Agent,
  AgentVersion,
  Binding,
  BindingDiagnostics,
  CallReceipts,
  DryRunAnswer,
  ExecutorSummary,
  HistoryItem,
  Run,
  Session,
  ToolCall,
  ToolsetVersion,
} from "@toolhost/protocol/wire";
import { ApiError, apiErrorOf } from "./api-error.js";

/** A page of a list, as every list route answers it. */
export interface ListPage<Item> {
  readonly data: Item[];
  readonly next_cursor: string | null;
}

/** An answer's status and exact text (the dry-run and history keep the server's bytes). */
export interface RawAnswer {
  readonly status: number;
  readonly text: string;
}

/** Longest list the console reads by following cursors (more is not shown). */
const MAX_LIST_ITEMS = 1000;

/** The API as the console uses it, for one key. */
export class ApiClient {
  /** `onUnauthorized` runs when the server no longer accepts the key (revoked): the console signs out. */
  constructor(
    private readonly key: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  /** Sends one request; answers the exact text, or throws ApiError (status 0 when unreachable). */
  async raw(method: string, path: string, body?: string): Promise<RawAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body, credentials: "omit" });
    } catch (error) {
      throw new ApiError(0, "unreachable", (error as Error).message);
    }
    const text = await response.text();
    if (response.status === 401) this.onUnauthorized();
    if (!response.ok) throw apiErrorOf(response.status, text);
    return { status: response.status, text };
  }

  /** Opens a server-sent event stream (fetch, so the key travels in a header, never in the URL). */
  async openStream(path: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const response = await fetch(path, {
      headers: { authorization: `Bearer ${this.key}`, accept: "text/event-stream" },
      credentials: "omit",
      signal,
    });
    if (!response.ok || response.body === null) throw apiErrorOf(response.status, await response.text());
    return response.body;
  }

  /** GET `path` and parse its JSON. */
  async get<T>(path: string): Promise<T> {
    return JSON.parse((await this.raw("GET", path)).text) as T;
  }

  /** Every item of a list route, following `next_cursor` (up to MAX_LIST_ITEMS). */
  async all<Item>(path: string): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | null = null;
    const separator = path.includes("?") ? "&" : "?";
    do {
      const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const page: ListPage<Item> = await this.get(`${path}${separator}limit=200${query}`);
      items.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor !== null && items.length < MAX_LIST_ITEMS);
    return items;
  }

  /** Checks the key: true when the server knows it (a key lacking `runtime:read` is still valid). */
  async verify(): Promise<void> {
    try {
      await this.raw("GET", "/v1/runs?limit=1");
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return;
      throw error;
    }
  }

  agents(): Promise<Agent[]> {
    return this.all("/v1/agents");
  }

  agentVersions(agentId: string): Promise<AgentVersion[]> {
    return this.all(`/v1/agents/${encodeURIComponent(agentId)}/versions`);
  }

  toolsetVersion(toolsetId: string, version: number): Promise<ToolsetVersion> {
    return this.get(`/v1/toolsets/${encodeURIComponent(toolsetId)}/versions/${version}`);
  }

  /** The dry-run, its body given as exact text (so mock results keep their numbers and key order). */
  async dryRun(bodyText: string): Promise<{ answer: DryRunAnswer; text: string }> {
    const { text } = await this.raw("POST", "/v1/tools/dry-run", bodyText);
    return { answer: JSON.parse(text) as DryRunAnswer, text };
  }

  recentRuns(limit = 50): Promise<ListPage<Run>> {
    return this.get(`/v1/runs?limit=${limit}`);
  }

  run(runId: string): Promise<Run> {
    return this.get(`/v1/runs/${encodeURIComponent(runId)}`);
  }

  toolCalls(runId: string): Promise<ToolCall[]> {
    return this.all(`/v1/runs/${encodeURIComponent(runId)}/tool-calls`);
  }

  callReceipts(runId: string, callId: string): Promise<CallReceipts> {
    return this.get(`/v1/runs/${encodeURIComponent(runId)}/tool-calls/${encodeURIComponent(callId)}/receipts`);
  }

  history(runId: string): Promise<HistoryItem[]> {
    return this.all(`/v1/runs/${encodeURIComponent(runId)}/history`);
  }

  sessions(): Promise<Session[]> {
    return this.all("/v1/sessions");
  }

  async startRun(sessionId: string, inputText: string): Promise<Run> {
    const body = `{"input":${JSON.stringify(inputText)}}`;
    const { text } = await this.raw("POST", `/v1/sessions/${encodeURIComponent(sessionId)}/runs`, body);
    return JSON.parse(text) as Run;
  }

  executors(): Promise<ExecutorSummary[]> {
    return this.all("/v1/executors");
  }

  bindings(): Promise<Binding[]> {
    return this.all("/v1/executor-bindings");
  }

  diagnostics(agentId: string, bindingId: string): Promise<BindingDiagnostics> {
    return this.get(
      `/v1/agents/${encodeURIComponent(agentId)}/executor-bindings/${encodeURIComponent(bindingId)}/diagnostics`,
    );
  }

  /** The paths of the OpenAPI document (public), to learn which routes this server has. */
  async apiPaths(): Promise<Set<string>> {
    const response = await fetch("/v1/openapi.json");
    if (!response.ok) return new Set();
    const doc = (await response.json()) as { paths?: Record<string, unknown> };
    return new Set(Object.keys(doc.paths ?? {}));
  }
}
