/**
 * The console's HTTP client: same-origin requests to the public API under /v1 with the session's key
 * as a bearer token. The JSON reads and writes go through `@toolhost/client` (paths, parameters and
 * bodies typed by the OpenAPI document); the dry-run and the run history keep `raw()`, the server's
 * exact text. Answers are typed by the wire schemas of `@toolhost/protocol/wire` (types only: nothing
 * of the protocol package reaches the browser bundle).
 */

import { createToolhostClient, type ToolhostClient } from "@toolhost/client";
import type {
  Agent,
  AgentVersion,
  Binding,
  BindingDiagnostics,
  CallReceipts,
  DryRunAnswer,
  ExecutorSummary,
  HistoryItem,
  ModelRequest,
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

/** How many of the newest runs a call ID search looks through. */
export const CALL_SEARCH_RUNS = 50;

/** Longest list the console reads by following cursors (more is not shown). */
const MAX_LIST_ITEMS = 1000;

/** The API as the console uses it, for one key. */
export class ApiClient {
  /** `onUnauthorized` runs when the server no longer accepts the key (revoked): the console signs out. */
  constructor(
    private readonly key: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {
    this.typed = createToolhostClient({
      // Same origin (relative URLs, as `raw()` uses): the console is served by the server it talks to.
      baseUrl: "",
      apiKey: key,
      fetch: (request) => fetch(request, { credentials: "omit" }),
    });
  }

  /** The typed client, for the JSON routes (see `answer`). */
  private readonly typed: ToolhostClient;

  /** The data of a typed request, or throws ApiError like `raw` (status 0 when unreachable). */
  private async answer<Data>(
    request: Promise<{ data?: Data; error?: unknown; response: Response }>,
  ): Promise<NonNullable<Data>> {
    let answered: Awaited<typeof request>;
    try {
      answered = await request;
    } catch (error) {
      throw new ApiError(0, "unreachable", (error as Error).message);
    }
    const { data, error, response } = answered;
    if (response.status === 401) this.onUnauthorized();
    if (!response.ok || data === undefined || data === null) {
      throw apiErrorOf(response.status, typeof error === "string" ? error : JSON.stringify(error ?? ""));
    }
    return data;
  }

  /** Every item of a list route, following `next_cursor` (up to MAX_LIST_ITEMS); `page` reads one page. */
  private async pages<Item>(page: (query: { limit: number; cursor?: string }) => Promise<ListPage<Item>>) {
    const items: Item[] = [];
    let cursor: string | null = null;
    do {
      const next: ListPage<Item> = await page(cursor === null ? { limit: 200 } : { limit: 200, cursor });
      items.push(...next.data);
      cursor = next.next_cursor;
    } while (cursor !== null && items.length < MAX_LIST_ITEMS);
    return items;
  }

  /** Sends one request; answers the exact text (for the views that show the server's bytes), or throws ApiError (status 0 when unreachable). */
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

  /** The run's events until its terminal status (`@toolhost/client`'s `runEvents`, resumed across connection ends). */
  runEvents(runId: string, signal: AbortSignal): AsyncGenerator<{ event: string; data: unknown }, void, undefined> {
    return this.typed.runEvents(runId, { signal });
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
      await this.answer(this.typed.GET("/v1/runs", { params: { query: { limit: 1 } } }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) return;
      throw error;
    }
  }

  agents(): Promise<Agent[]> {
    return this.pages((query) => this.answer(this.typed.GET("/v1/agents", { params: { query } })));
  }

  agentVersions(agentId: string): Promise<AgentVersion[]> {
    return this.pages((query) =>
      this.answer(this.typed.GET("/v1/agents/{agent_id}/versions", { params: { path: { agent_id: agentId }, query } })),
    );
  }

  toolsetVersion(toolsetId: string, version: number): Promise<ToolsetVersion> {
    return this.answer(
      this.typed.GET("/v1/toolsets/{toolset_id}/versions/{version}", {
        params: { path: { toolset_id: toolsetId, version } },
      }),
    );
  }

  /** The dry-run, its body given as exact text (so mock results keep their numbers and key order). */
  async dryRun(bodyText: string): Promise<{ answer: DryRunAnswer; text: string }> {
    const { text } = await this.raw("POST", "/v1/tools/dry-run", bodyText);
    return { answer: JSON.parse(text) as DryRunAnswer, text };
  }

  /** One page of the runs list, newest first, optionally of one status and/or one agent. */
  recentRuns(
    filter: { status?: Run["status"]; agent_id?: string; cursor?: string; limit?: number } = {},
  ): Promise<ListPage<Run>> {
    return this.answer(this.typed.GET("/v1/runs", { params: { query: { limit: 50, ...filter } } }));
  }

  /** One page of a session's runs, in creation order. */
  sessionRuns(sessionId: string, limit: number, cursor?: string): Promise<ListPage<Run>> {
    const query = cursor === undefined ? { limit } : { limit, cursor };
    return this.answer(
      this.typed.GET("/v1/sessions/{session_id}/runs", { params: { path: { session_id: sessionId }, query } }),
    );
  }

  /**
   * The run of a call ID, looked for among the calls of the newest `CALL_SEARCH_RUNS` runs (the API
   * has no route from a call ID to its run); undefined when none of them has it.
   */
  async runOfCall(callId: string): Promise<string | undefined> {
    const runs = await this.recentRuns({ limit: CALL_SEARCH_RUNS });
    for (const run of runs.data) {
      const calls = await this.toolCalls(run.run_id);
      if (calls.some((call) => call.call_id === callId)) return run.run_id;
    }
    return undefined;
  }

  run(runId: string): Promise<Run> {
    return this.answer(this.typed.GET("/v1/runs/{run_id}", { params: { path: { run_id: runId } } }));
  }

  toolCalls(runId: string): Promise<ToolCall[]> {
    return this.pages((query) =>
      this.answer(this.typed.GET("/v1/runs/{run_id}/tool-calls", { params: { path: { run_id: runId }, query } })),
    );
  }

  /** Run cancel: the run becomes `cancelled` (409 `run_terminated` once it ended). */
  cancelRun(runId: string): Promise<{ run_id: string; status: string }> {
    return this.answer(this.typed.POST("/v1/runs/{run_id}/cancel", { params: { path: { run_id: runId } }, body: {} }));
  }

  /** Business-task cancel of one call: `{call_id, status, cancel_requested}` (409 `call_already_final`). */
  cancelCall(runId: string, callId: string): Promise<{ call_id: string; status: string }> {
    return this.answer(
      this.typed.POST("/v1/runs/{run_id}/tool-calls/{call_id}/cancel", {
        params: { path: { run_id: runId, call_id: callId } },
        body: {},
      }),
    );
  }

  /** Compensation of a completed write call: the new compensation call. */
  compensateCall(runId: string, callId: string, toolName: string, args: unknown): Promise<ToolCall> {
    return this.answer(
      this.typed.POST("/v1/runs/{run_id}/tool-calls/{call_id}/compensate", {
        params: { path: { run_id: runId, call_id: callId } },
        body: { tool_name: toolName, arguments: args as Record<string, never> },
      }),
    );
  }

  /** Every model request the run made, in creation order. */
  modelRequests(runId: string): Promise<ModelRequest[]> {
    return this.pages((query) =>
      this.answer(this.typed.GET("/v1/runs/{run_id}/model-requests", { params: { path: { run_id: runId }, query } })),
    );
  }

  agentVersion(agentId: string, agentVersion: string): Promise<AgentVersion> {
    return this.answer(
      this.typed.GET("/v1/agents/{agent_id}/versions/{agent_version}", {
        params: { path: { agent_id: agentId, agent_version: agentVersion } },
      }),
    );
  }

  callReceipts(runId: string, callId: string): Promise<CallReceipts> {
    return this.answer(
      this.typed.GET("/v1/runs/{run_id}/tool-calls/{call_id}/receipts", {
        params: { path: { run_id: runId, call_id: callId } },
      }),
    );
  }

  /** The run's history through `raw()`: the run page shows the server's exact text. */
  history(runId: string): Promise<HistoryItem[]> {
    return this.all(`/v1/runs/${encodeURIComponent(runId)}/history`);
  }

  sessions(): Promise<Session[]> {
    return this.pages((query) => this.answer(this.typed.GET("/v1/sessions", { params: { query } })));
  }

  startRun(sessionId: string, inputText: string): Promise<Run> {
    return this.answer(
      this.typed.POST("/v1/sessions/{session_id}/runs", {
        params: { path: { session_id: sessionId } },
        body: { input: inputText },
      }),
    );
  }

  executors(): Promise<ExecutorSummary[]> {
    return this.pages((query) => this.answer(this.typed.GET("/v1/executors", { params: { query } })));
  }

  bindings(): Promise<Binding[]> {
    return this.pages((query) => this.answer(this.typed.GET("/v1/executor-bindings", { params: { query } })));
  }

  diagnostics(agentId: string, bindingId: string): Promise<BindingDiagnostics> {
    return this.answer(
      this.typed.GET("/v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics", {
        params: { path: { agent_id: agentId, binding_id: bindingId } },
      }),
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
