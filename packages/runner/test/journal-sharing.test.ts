// The journal at its edges, with real runners against a real server: two runners with different
// executor IDs on one journal leave each other's calls alone; a second runner started with the same
// executor ID on the same journal fails fast and disturbs nothing; the journal opens in start(), which
// rejects with journal_unavailable naming the path and the cause (a corrupt file, a directory, a file
// another process locks) without blocking the event loop; and a backward wall-clock step does not stop
// reconciliation (every interval is monotonic).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RunnerError } from "../src/index.js";
import {
  buildWorld,
  callsOf,
  eventually,
  newRunner,
  settledRun,
  startRun,
  startTestServer,
  storedReceipts,
  type TestServer,
} from "./support/server-world.js";
import { tempDir } from "./support/temp-dir.js";

const ONE_CREATE = [{ tool_calls: [{ name: "tasks.create", arguments: { title: "x" } }] }, { message: "done" }];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The RunnerError `start()` rejects with (fails the test when it resolves). */
async function startFailure(start: Promise<void>): Promise<RunnerError> {
  const error = await start.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RunnerError);
  return error as RunnerError;
}

describe("runners sharing one journal", () => {
  it("with different executor IDs: recovery, sweep and reconciliation leave the other's calls alone", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const path = join(tempDir(), "journal.db");
    const first = newRunner(world, { journalPath: path, executorId: "share-a" });
    let release: (value: unknown) => void = () => undefined;
    first.register("tasks.create", () => new Promise((resolve) => (release = resolve)), { effect: "write" });
    const confirmed = new Promise((resolve) => first.on("confirmed", resolve));
    await first.start();
    const runId = await startRun(world);
    await confirmed;

    const second = newRunner(world, { journalPath: path, executorId: "share-b" });
    second.register("tasks.create", () => ({ by: "b" }), { effect: "write" });
    second.onReconcile("tasks.create", () => ({ kind: "completed", result: { by: "b's resolver" } }));
    const recovered = new Promise<{ reported: number }>((resolve) => second.on("recovered", resolve));
    await second.start();
    expect((await recovered).reported).toBe(0);
    // A few sweeps and reconciliation rounds of the second runner pass while the first's handler runs.
    await new Promise((resolve) => setTimeout(resolve, 400));

    release({ by: "a" });
    await settledRun(world, runId);
    const [call] = await callsOf(world, runId);
    expect(call).toMatchObject({ status: "completed", executor_id: "share-a" });
    const receipts = await storedReceipts(world, call.call_id);
    expect(receipts.map((receipt) => receipt.kind)).toEqual(["accepted", "completed"]);
    expect(receipts[1]?.body_text).toContain('"result":{"by":"a"}');
    await second.stop();
    await first.stop();
  });

  it("with the same executor ID: the second start fails fast, and the first goes on undisturbed", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const path = join(tempDir(), "journal.db");
    const first = newRunner(world, { journalPath: path, executorId: "same-id" });
    first.register("tasks.create", () => ({ ok: true }), { effect: "write" });
    const fenced: unknown[] = [];
    first.on("fenced", (event) => fenced.push(event));
    await first.start();

    const second = newRunner(world, { journalPath: path, executorId: "same-id" });
    second.register("tasks.create", () => ({ ok: "second" }), { effect: "write" });
    const error = await startFailure(second.start());
    expect(error.code).toBe("journal_unavailable");
    expect(error.message).toContain(path);
    expect(error.message).toContain('another runner with executor ID "same-id" is started on it');
    expect(second.state).toBe("failed");

    const runId = await startRun(world);
    expect((await settledRun(world, runId)).status).toBe("completed");
    expect(fenced).toEqual([]);
    expect(first.state).toBe("started");
    await first.stop();
    // Once the first stopped, the same ID may start on the journal again.
    const third = newRunner(world, { journalPath: path, executorId: "same-id" });
    third.register("tasks.create", () => ({ ok: true }), { effect: "write" });
    await third.start();
    await third.stop();
  });
});

describe("a journal that cannot be used", () => {
  it("is opened by start(), not the constructor, which rejects with journal_unavailable naming the path and cause", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const corrupt = join(tempDir(), "journal.db");
    writeFileSync(corrupt, "this is not a SQLite database, but it is long enough to look like a header".repeat(20));
    const directory = join(tempDir(), "journal.db");
    mkdirSync(directory);
    for (const [path, cause] of [
      [corrupt, "not a journal"],
      [directory, "cannot be opened"],
    ] as const) {
      const runner = newRunner(world, { journalPath: path });
      expect(runner.stats().journal).toBeNull();
      const error = await startFailure(runner.start());
      expect(error.code).toBe("journal_unavailable");
      expect(error.message).toContain(path);
      expect(error.message).toContain(cause);
      // A process that only finishes deferred calls gets the same answer, never a raw SqliteError.
      const finisher = newRunner(world, { journalPath: path });
      const finishing = await finisher.complete("dh_x", {}).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(finishing).toMatchObject({ code: "journal_unavailable" });
      await finisher.stop();
    }
  });

  it("locked by another process: start() rejects after its wait, and the event loop never blocks long", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const path = join(tempDir(), "journal.db");
    // Another process creates the file in WAL mode and holds its write lock for 6 s.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const D = require("better-sqlite3"); const db = new D(process.argv[1]); db.pragma("journal_mode = WAL");
         db.exec("CREATE TABLE IF NOT EXISTS x (y)"); db.exec("BEGIN EXCLUSIVE"); db.exec("INSERT INTO x VALUES (1)");
         process.stdout.write("locked\\n"); setTimeout(() => process.exit(0), 6000);`,
        path,
      ],
      { cwd: join(import.meta.dirname, ".."), stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout?.once("data", () => resolve()));
      const runner = newRunner(world, { journalPath: path });
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const error = await startFailure(runner.start());
      delay.disable();
      expect(error.code).toBe("journal_unavailable");
      expect(error.message).toContain(path);
      expect(error.message).toContain("locked by another process");
      // The old journal waited 10 s inside one synchronous call; now one attempt waits 50 ms.
      const maxBlockMs = delay.max / 1e6;
      console.info(`longest event-loop block while the journal was locked: ${maxBlockMs.toFixed(1)} ms`);
      expect(maxBlockMs).toBeLessThan(1_000);
    } finally {
      holder.kill("SIGKILL");
    }
  });
});

describe("intervals are monotonic", () => {
  it("a backward wall-clock step of an hour does not stop reconciliation", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world, { reconcileIntervalMs: 100 });
    runner.register(
      "tasks.create",
      () => {
        throw new Error("the outcome is unknown");
      },
      { effect: "write" },
    );
    let asked = 0;
    let answer = false;
    runner.onReconcile("tasks.create", () => {
      asked++;
      return answer ? { kind: "completed", result: { found: true } } : null;
    });
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => asked,
      (n) => n >= 1,
      "the resolver is asked once",
    );
    // Only Date is faked: timers run for real, the wall clock jumps back an hour.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 3_600_000 });
    const before = asked;
    await eventually(
      () => asked,
      (n) => n >= before + 2,
      "the resolver is asked again after the clock stepped back",
    );
    answer = true;
    vi.useRealTimers();
    const [call] = await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0]?.status === "completed",
      "the call settles",
    );
    expect(call.status).toBe("completed");
    await runner.stop();
  });
});
