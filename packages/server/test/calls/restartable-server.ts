/**
 * A clocked test server that can be restarted on its own database: `restart()` closes the running
 * server and starts a new one on the SAME database URL with the same manual clock, as an operator
 * restarting the process would (migrations find nothing to do, the grant key is read back). The
 * calls harness starts every server on a fresh database; this is the one place that reopens one.
 */

import { afterAll } from "vitest";
import { type RunningServer, startServer } from "../../src/index.js";
import type { ServerOptions } from "../../src/options.js";
import type { Dialect } from "../../src/storage/storage.js";
import { type Answer, BOOTSTRAP_SECRET, type Call, LogCapture, request } from "../http/http-harness.js";
import { type TestDatabase, testDatabaseUrl } from "../support/test-databases.js";
import { ManualClock } from "./calls-harness.js";

/** A server over one database that survives restarts; requests always go to the current process. */
export interface RestartableServer {
  readonly database: TestDatabase;
  readonly clock: ManualClock;
  /** The log lines of every process started so far, in order. */
  readonly logs: LogCapture;
  /** How many times a new process was started on the database (1 after the first start). */
  readonly starts: number;
  /** The current process's base URL. */
  readonly url: string;
  /** Sends one request to the current process. */
  call(method: string, path: string, call?: Call): Promise<Answer>;
  /** Closes the current process and starts a new one on the same database and clock. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const open = new Set<RestartableServer>();

afterAll(async () => {
  for (const server of open) await server.close();
});

/** Starts a restartable server on a fresh database of `dialect` with a manual clock and fast sweeps. */
export async function startRestartableServer(
  dialect: Dialect,
  options: ServerOptions = {},
): Promise<RestartableServer> {
  const database = await testDatabaseUrl(dialect);
  const clock = new ManualClock();
  const logs = new LogCapture();
  const launch = (): Promise<RunningServer> =>
    startServer(
      {
        databaseUrl: database.url,
        host: "127.0.0.1",
        port: 0,
        bootstrapKey: BOOTSTRAP_SECRET,
        logLevel: "warn",
        logDestination: logs,
        sweepIntervalMs: 10,
        ...options,
      },
      {},
      clock,
    );
  let current: RunningServer | undefined = await launch();
  let starts = 1;
  const running = (): RunningServer => {
    if (current === undefined) throw new Error("the restartable server is closed");
    return current;
  };
  const server: RestartableServer = {
    database,
    clock,
    logs,
    get starts() {
      return starts;
    },
    get url() {
      return running().url;
    },
    call: (method, path, call = {}) => request(running().url, method, path, call),
    restart: async () => {
      await running().close();
      current = undefined;
      current = await launch();
      starts++;
    },
    close: async () => {
      open.delete(server);
      const closing = current;
      current = undefined;
      await closing?.close();
    },
  };
  open.add(server);
  return server;
}
