// The runner's logs against a real server: one info line per call outcome with its duration, a
// handler's stack kept, a pino logger accepted as is; start() gives up after connectTimeoutMs; a
// fenced runner with exitWhenFenced exits its process.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { pino } from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { FENCED_EXIT_CODE, RunnerError } from "../src/index.js";
import {
  buildWorld,
  callsOf,
  eventually,
  newRunner,
  startRun,
  startTestServer,
  type TestServer,
} from "./support/server-world.js";
import { tempDir } from "./support/temp-dir.js";

const ONE_CREATE = [{ tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] }, { message: "done" }];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

describe("runner logs", () => {
  it("logs one info line per call outcome with its duration; a thrown error keeps its stack", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const lines: Array<Record<string, unknown>> = [];
    const capture = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      lines.push({ level, message, ...fields });
    const logger = { error: capture("error"), warn: capture("warn"), info: capture("info"), debug: capture("debug") };
    const runner = newRunner(world, { logger, executorId: "logs-ex-1" });
    runner.register(
      "tasks.create",
      () => {
        throw new Error("the insert may have happened");
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0].status === "reconciliation_required",
      "unknown outcome",
    );
    await runner.stop();
    const finished = lines.filter((line) => line.message === "call finished");
    expect(finished).toHaveLength(1);
    const [line] = finished;
    expect(line).toMatchObject({ level: "info", runId, tool: "tasks.create", outcome: "reconciliation_required" });
    expect(typeof line?.durationMs).toBe("number");
    const error = line?.error as { message: string; stack: string };
    expect(error.message).toBe("the insert may have happened");
    expect(error.stack).toContain("runner-logs.test.ts");
  });

  it("accepts a pino logger as is: messages and fields land where pino puts them, secrets redacted", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const written: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => written.push(line) });
    const runner = newRunner(world, { logger, executorId: "logs-ex-2" });
    runner.register(
      "tasks.create",
      (_call, ctx) => {
        ctx.log("working", { grant: "pretend-grant", max_tokens: 64 });
        return { task_id: "t-1" };
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0].status === "completed",
      "completed",
    );
    await runner.stop();
    const records = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    const finished = records.filter((record) => record.msg === "call finished");
    expect(finished).toEqual([expect.objectContaining({ level: 30, outcome: "completed", tool: "tasks.create" })]);
    const working = records.find((record) => record.msg === "working");
    expect(working).toMatchObject({ grant: "[redacted]", max_tokens: 64 });
    expect(written.join("")).not.toContain("pretend-grant");
  });

  it("start() fails with connect_timeout when the server cannot be reached in connectTimeoutMs", async () => {
    // A port that accepts nothing: listen, note it, close.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
      });
    });
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(
      { ...world, server: { ...world.server, url: `http://127.0.0.1:${port}` } },
      { connectTimeoutMs: 300, executorId: "logs-ex-3" },
    );
    const failure = await runner.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RunnerError);
    expect((failure as RunnerError).code).toBe("connect_timeout");
    expect(runner.state).toBe("failed");
  });
});

describe("exitWhenFenced", () => {
  it("exits the process with FENCED_EXIT_CODE once another process takes the executor ID", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const dir = tempDir("toolhost-fenced-");
    const script = join(dir, "fenced-child.mjs");
    const runnerUrl = pathToFileURL(fileURLToPath(new URL("../dist/index.js", import.meta.url))).href;
    writeFileSync(
      script,
      `import { ToolRunner } from ${JSON.stringify(runnerUrl)};
const runner = new ToolRunner({
  baseUrl: process.env.URL, apiKey: process.env.KEY, executorId: "fence-ex-1", bindingIds: [process.env.BINDING],
  journalPath: process.env.JOURNAL, pollWaitMs: 200, exitWhenFenced: true, logger: "silent",
});
runner.register("tasks.create", () => ({ ok: true }), { effect: "write" });
await runner.start();
process.stdout.write("started\\n");
setInterval(() => undefined, 1000);
`,
    );
    const child = spawn(process.execPath, [script], {
      env: {
        PATH: process.env.PATH,
        URL: world.server.url,
        KEY: world.executorKey,
        BINDING: world.bindingId,
        JOURNAL: join(dir, "child.db"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          if (chunk.toString("utf8").includes("started")) resolve();
        });
        exited.then((code) => reject(new Error(`the child exited with ${code} before starting`)));
      });
      // Another process connects with the same executor ID: the child is fenced.
      const twin = newRunner(world, { executorId: "fence-ex-1" });
      twin.register("tasks.create", () => ({ ok: true }), { effect: "write" });
      await twin.start();
      expect(await exited).toBe(FENCED_EXIT_CODE);
      await twin.stop();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
