/**
 * `@toolhost/client`: a typed client of the toolhost HTTP API (control plane and executor protocol),
 * openapi-fetch over the types generated from the server's OpenAPI document. Every path, parameter,
 * body and answer is typed, errors included (`{ data, error, response }`).
 *
 * ```ts
 * const toolhost = createToolhostClient({ baseUrl: "http://127.0.0.1:8080", apiKey });
 * const { data, error } = await toolhost.GET("/v1/runs/{run_id}", { params: { path: { run_id } } });
 * const run = await toolhost.waitForRun(run_id, { timeoutMs: 30_000 }); // follows the event stream
 * for await (const event of toolhost.runEvents(run_id)) console.log(event.event, event.data);
 * ```
 */

import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./generated/openapi.js";
import { type RunEvent, type RunEventsOptions, runEvents, type StreamTarget } from "./run-events.js";
import { type RunAnswer, type WaitForRunOptions, waitForRun } from "./wait-for-run.js";

export { type RunEvent, type RunEventsOptions, TERMINAL_RUN_STATUSES, ToolhostApiError } from "./run-events.js";
export { type RunAnswer, RunWaitTimeout, type WaitForRunOptions } from "./wait-for-run.js";
export type { components, operations, paths };

/** The named wire schemas of the API (`Schemas["ClaimAnswer"]`, `Schemas["ReceiptRequest"]`, …). */
export type Schemas = components["schemas"];

/** The helpers over the run event stream. */
export interface RunHelpers {
  /** Resolves with the run once it ended (terminal status), following its event stream; RunWaitTimeout after `timeoutMs`. */
  waitForRun(runId: string, options?: WaitForRunOptions): Promise<RunAnswer>;
  /** The run's events as they happen, resumed with Last-Event-ID when the stream ends early, until the run ends. */
  runEvents(runId: string, options?: RunEventsOptions): AsyncGenerator<RunEvent, void, undefined>;
}

/** The client: `GET`, `POST`, `DELETE`, … of the API's paths, typed, and the run helpers. */
export type ToolhostClient = Client<paths> & RunHelpers;

/** What a client needs. */
export interface ToolhostClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080` (no trailing `/v1`). */
  readonly baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <key>`; omit for the public routes only. */
  readonly apiKey?: string;
  /** Another fetch (tests, proxies); default the global one. */
  readonly fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A typed client of the server at `options.baseUrl`. */
export function createToolhostClient(options: ToolhostClientOptions): ToolhostClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const client = createClient<paths>({
    baseUrl,
    headers,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const target: StreamTarget = { baseUrl, headers, fetch: options.fetch ?? ((request) => globalThis.fetch(request)) };
  const helpers: RunHelpers = {
    waitForRun: (runId, waitOptions) => waitForRun(target, runId, waitOptions),
    runEvents: (runId, eventOptions) => runEvents(target, runId, eventOptions),
  };
  return Object.assign(client, helpers);
}
