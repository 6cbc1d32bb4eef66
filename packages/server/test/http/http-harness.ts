/**
 * Black-box HTTP test support: a real server on 127.0.0.1 (port 0) over a fresh database of one
 * dialect, its log lines captured, and a small fetch wrapper. Servers still open when the test file
 * ends are closed before their databases are removed.
 */

import { afterAll } from "vitest";
import { type RunningServer, type ServerOptions, startServer } from "../../src/index.js";
import type { Dialect } from "../../src/storage/storage.js";
import { type TestDatabase, testDatabaseUrl } from "../support/test-databases.js";
import { checkErrorAnswer } from "./answer-check.js";

/** The bootstrap secret test servers start with. */
export const BOOTSTRAP_SECRET = "test-bootstrap-secret-5f1c0a9e";

/** A pino destination that keeps every line in memory. */
export class LogCapture {
  /** Every line written, in order. */
  readonly lines: string[] = [];

  /** pino calls this once per log line. */
  write(line: string): void {
    this.lines.push(line);
  }

  /** Every line as one text. */
  text(): string {
    return this.lines.join("");
  }

  /** Every line parsed. */
  records(): Array<Record<string, unknown>> {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

/** A parsed answer. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body (undefined when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
  readonly body: any;
}

/** What a test request sends. */
export interface Call {
  /** The API key secret to send as a bearer token. */
  readonly key?: string;
  /** A value sent as JSON, or a string sent verbatim. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A started test server. */
export interface TestServer {
  readonly url: string;
  readonly server: RunningServer;
  readonly database: TestDatabase;
  readonly logs: LogCapture;
  /** Sends one request and reads the answer. */
  call(method: string, path: string, call?: Call): Promise<Answer>;
  close(): Promise<void>;
}

const open = new Set<TestServer>();

afterAll(async () => {
  for (const server of open) await server.close();
});

/** Starts a server on a fresh database of `dialect` (or on `database`), bootstrap key BOOTSTRAP_SECRET. */
export async function startTestServer(
  dialect: Dialect,
  options: ServerOptions = {},
  database?: TestDatabase,
): Promise<TestServer> {
  const db = database ?? (await testDatabaseUrl(dialect));
  const logs = new LogCapture();
  const server = await startServer(
    {
      databaseUrl: db.url,
      host: "127.0.0.1",
      port: 0,
      bootstrapKey: BOOTSTRAP_SECRET,
      logLevel: "info",
      logDestination: logs,
      ...options,
    },
    {},
  );
  const testServer: TestServer = {
    url: server.url,
    server,
    database: db,
    logs,
    call: (method, path, call = {}) => request(server.url, method, path, call),
    close: async () => {
      open.delete(testServer);
      await server.close();
    },
  };
  open.add(testServer);
  return testServer;
}

/** Sends one request to `baseUrl`; an error answer the OpenAPI document does not list for the operation throws. */
export async function request(baseUrl: string, method: string, path: string, call: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.key !== undefined) headers.authorization = `Bearer ${call.key}`;
  let body: string | undefined;
  if (call.body !== undefined) {
    body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
    headers["content-type"] ??= "application/json";
  }
  const url = new URL(path, baseUrl);
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  await checkErrorAnswer(baseUrl, method, url, response.status, parsed);
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Creates a key with the bootstrap key and answers the 201 body. */
export async function createKey(
  server: TestServer,
  body: { name: string; scopes: string[]; agents?: unknown; bindings?: unknown },
): Promise<{ key_id: string; key: string }> {
  const answer = await server.call("POST", "/v1/keys", { key: BOOTSTRAP_SECRET, body });
  if (answer.status !== 201) throw new Error(`creating a key answered ${answer.status}: ${answer.text}`);
  return answer.body;
}
