/**
 * `@toolhost/client`: a typed client of the toolhost HTTP API (control plane and executor protocol),
 * openapi-fetch over the types generated from the server's OpenAPI document. Every path, parameter,
 * body and answer is typed, errors included (`{ data, error, response }`).
 *
 * ```ts
 * const toolhost = createToolhostClient({ baseUrl: "http://127.0.0.1:8080", apiKey });
 * const { data, error } = await toolhost.GET("/v1/runs/{run_id}", { params: { path: { run_id } } });
 * ```
 */

import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "./generated/openapi.js";

export type { components, operations, paths };

/** The named wire schemas of the API (`Schemas["ClaimAnswer"]`, `Schemas["ReceiptRequest"]`, …). */
export type Schemas = components["schemas"];

/** The client: `GET`, `POST`, `DELETE`, … of the API's paths, typed. */
export type ToolhostClient = Client<paths>;

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
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}
