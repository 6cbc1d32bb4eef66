/**
 * Executor test support: a real server (in process, on a real port) with a manual clock, the runtime
 * fixture (bindings b1 and b2, agent a1 with version agv1, session s1, run r1) and helpers to connect
 * executors and to add calls straight to storage (notifying the server's wake-ups like a flow would).
 */

import { afterAll } from "vitest";
import type { Clock } from "../../src/clock.js";
import { type RunningServer, type ServerOptions, startServer } from "../../src/index.js";
import type { CallRecord } from "../../src/storage/records.js";
import type { Dialect } from "../../src/storage/storage.js";
import type { CallWakeups } from "../../src/wakeups/call-wakeups.js";
import { pendingCallWakeups } from "../../src/wakeups/wakeup.js";
import { BOOTSTRAP_SECRET, type Call, LogCapture, request } from "../http/http-harness.js";
import { callRecord, publishRuntime, runRecord } from "../support/call-fixtures.js";
import { bindingRecord } from "../support/storage-fixtures.js";
import { type TestDatabase, testDatabaseUrl } from "../support/test-databases.js";

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private now = 10_000) {}

  nowMs(): number {
    return this.now;
  }

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.now += ms;
  }
}

/** A started executor test server. */
export interface ExecutorServer {
  readonly url: string;
  readonly server: RunningServer;
  readonly clock: ManualClock;
  readonly database: TestDatabase;
  /** A key with `executors:connect` for bindings b1 and b2. */
  readonly key: string;
  /** Sends one request. */
  call(method: string, path: string, call?: Call): ReturnType<typeof request>;
  close(): Promise<void>;
}

const open = new Set<ExecutorServer>();

afterAll(async () => {
  for (const server of open) await server.close();
});

/** Options the tests start with: heartbeat 1 s, lease 3 s, and a ticker slow enough to stay out of the way. */
export const TEST_TIMING = { heartbeatIntervalMs: 1_000, leaseTtlMs: 3_000, sweepIntervalMs: 60_000 } as const;

/** Starts a server on a fresh database (or on `database`), with the runtime fixture unless `seed` is false. */
export async function startExecutorServer(
  dialect: Dialect,
  options: ServerOptions & { database?: TestDatabase; clock?: ManualClock; seed?: boolean } = {},
): Promise<ExecutorServer> {
  const { database: given, clock = new ManualClock(), seed = true, ...serverOptions } = options;
  const database = given ?? (await testDatabaseUrl(dialect));
  const server = await startServer(
    {
      databaseUrl: database.url,
      host: "127.0.0.1",
      port: 0,
      bootstrapKey: BOOTSTRAP_SECRET,
      logLevel: "warn",
      logDestination: new LogCapture(),
      ...TEST_TIMING,
      ...serverOptions,
    },
    {},
    clock,
  );
  if (seed) {
    await publishRuntime(server.storage);
    await server.storage.bindings.insert(bindingRecord("b3"));
    await server.storage.runs.insert(runRecord("r1"));
  }
  const key = seed
    ? await createKey(server.url, { name: "executor", scopes: ["executors:connect"], bindings: ["b1", "b2"] })
    : "";
  const testServer: ExecutorServer = {
    url: server.url,
    server,
    clock,
    database,
    key,
    call: (method, path, call = {}) => request(server.url, method, path, call),
    close: async () => {
      open.delete(testServer);
      await server.close();
    },
  };
  open.add(testServer);
  return testServer;
}

/** Creates a key with the bootstrap key on the server at `url`; answers its secret. */
export async function createKey(
  url: string,
  body: { name: string; scopes: string[]; agents?: unknown; bindings?: unknown },
): Promise<string> {
  const answer = await request(url, "POST", "/v1/keys", { key: BOOTSTRAP_SECRET, body });
  if (answer.status !== 201) throw new Error(`creating a key answered ${answer.status}: ${answer.text}`);
  return answer.body.key;
}

/** Connects `executorId` for `bindingIds` with `key` (default: the server's executor key); throws unless 200. */
export async function connect(
  server: ExecutorServer,
  executorId: string,
  bindingIds: string[] = ["b1"],
  key = server.key,
): Promise<{ connection_id: string; epoch: number }> {
  const answer = await server.call("POST", "/v1/executors/connect", {
    key,
    body: { executor_id: executorId, binding_ids: bindingIds },
  });
  if (answer.status !== 200) throw new Error(`connect answered ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** Stores calls of run r1 (pending on b1 unless overridden) and wakes one long-poll per call. */
export async function addCalls(server: ExecutorServer, calls: Array<[string, Partial<CallRecord>?]>): Promise<void> {
  const records = calls.map(([callId, overrides], position) => callRecord("r1", callId, { position, ...overrides }));
  await server.server.storage.calls.insertMany(records);
  server.server.wakeups.notify(pendingCallWakeups(records));
}

/** The path of an executor route. */
export function executorPath(executorId: string, route: string, query?: Record<string, string | number>): string {
  const base = `/v1/executors/${encodeURIComponent(executorId)}/${route}`;
  if (query === undefined) return base;
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return `${base}?${params.toString()}`;
}

/** Counts the waits started on `wakeups`. */
export function countWaits(wakeups: CallWakeups): { readonly started: number } {
  const counter = { started: 0 };
  const wait = wakeups.wait.bind(wakeups);
  wakeups.wait = (waitFor, timeoutMs, signal) => {
    counter.started++;
    return wait(waitFor, timeoutMs, signal);
  };
  return counter;
}
