// Crashes and restarts against a real server: lost answers are redelivered with the same receipt ID
// and body, replayed answers never re-run a handler, a restart resumes an unconfirmed accept, sends a
// confirmed write call with no result to reconciliation (never re-running it), re-runs a read call,
// and a second process sharing the journal finishes a deferred call.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { RunnerError, type ToolRunner } from "../src/index.js";
import {
  api,
  buildWorld,
  callsOf,
  eventually,
  newRunner,
  settledRun,
  startRun,
  startTestServer,
  storedReceipts,
  type TestServer,
  type World,
} from "./support/server-world.js";
import { tempDir } from "./support/temp-dir.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

const script = (tool: string) => [{ tool_calls: [{ name: tool, arguments: { title: "x" } }] }, { message: "done" }];

/** A fetch that forwards receipts of `kind` to the server and then loses the answer (`times` times). */
function losingAnswers(kind: string, times: number, sent: string[]): typeof fetch {
  let lost = 0;
  return async (input, init) => {
    const isKind = String(input).endsWith("/receipts") && String(init?.body).includes(`"kind":"${kind}"`);
    if (!isKind) return fetch(input, init);
    // A batch of the batched route carries the receipt's exact text as its item's `receipt`.
    const body = String(init?.body);
    sent.push(body.startsWith('{"receipts":') ? JSON.stringify(JSON.parse(body).receipts[0].receipt) : body);
    const response = await fetch(input, init);
    if (lost < times) {
      lost++;
      await response.text();
      throw new TypeError("fetch failed (answer lost)");
    }
    return response;
  };
}

function journalPath(): string {
  return join(tempDir(), "journal.db");
}

describe("redelivery", () => {
  it("resends a receipt whose answer was lost with the same ID and body; replayed: true acknowledges it", async () => {
    const world = await buildWorld(server, script("tasks.create"));
    const sent: string[] = [];
    const runner = newRunner(world, { fetch: losingAnswers("completed", 2, sent) });
    let runs = 0;
    runner.register("tasks.create", () => ({ n: ++runs }), { effect: "write" });
    await runner.start();
    const runId = await startRun(world);
    await settledRun(world, runId);
    await eventually(
      () => runner.stats().journal,
      (journal) => journal?.done === 1,
      "the receipt is acknowledged",
    );
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("completed");
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(1);
    const stored = (await storedReceipts(world, call.call_id)).filter((receipt) => receipt.kind === "completed");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.body_text).toBe(sent[0]);
    expect(runs).toBe(1);
    expect(runner.stats().counters).toMatchObject({ receipts_replayed: 1, delivery_retries: 2, handlers_started: 1 });
    await runner.stop();
  });
});

describe("recovery after a restart", () => {
  /**
   * What a process that died leaves on disk: a copy of its journal (the file and its WAL). The first
   * runner stays alive in this process (to be fenced), so the new one starts on the copy: a started
   * runner's executor lock keeps a second one off the same file.
   */
  function diskOf(path: string): string {
    const copy = journalPath();
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    return copy;
  }

  async function restart(world: World, path: string, register: (runner: ToolRunner) => void): Promise<ToolRunner> {
    const runner = newRunner(world, { journalPath: path });
    register(runner);
    await runner.start();
    return runner;
  }

  it("redelivers a final receipt the first process never saw acknowledged; the handler never runs again", async () => {
    const world = await buildWorld(server, script("tasks.create"));
    const path = journalPath();
    const first = newRunner(world, {
      journalPath: path,
      fetch: losingAnswers("completed", Number.POSITIVE_INFINITY, []),
    });
    let runs = 0;
    first.register("tasks.create", () => ({ n: ++runs }), { effect: "write" });
    const journaled = new Promise((resolve) => first.on("result_journaled", resolve));
    await first.start();
    const runId = await startRun(world);
    await journaled;
    await first.stop();
    const second = await restart(world, path, (runner) =>
      runner.register("tasks.create", () => ({ n: ++runs }), { effect: "write" }),
    );
    const acked = new Promise<boolean>((resolve) => second.on("receipt_acked", ({ replayed }) => resolve(replayed)));
    await settledRun(world, runId);
    expect(await acked).toBe(true);
    expect(runs).toBe(1);
    const [call] = await callsOf(world, runId);
    expect((await storedReceipts(world, call.call_id)).map((receipt) => receipt.kind)).toEqual([
      "accepted",
      "completed",
    ]);
    await eventually(
      () => second.stats().journal,
      (journal) => journal?.done === 1,
      "the call is done",
    );
    await second.stop();
  });

  it("resumes an accepted receipt whose answer was lost: runs the handler once, after confirmation", async () => {
    const world = await buildWorld(server, script("tasks.create"));
    const path = journalPath();
    const sent: string[] = [];
    const first = newRunner(world, {
      journalPath: path,
      fetch: losingAnswers("accepted", Number.POSITIVE_INFINITY, sent),
    });
    let runs = 0;
    first.register("tasks.create", () => ({ n: ++runs }), { effect: "write" });
    await first.start();
    const runId = await startRun(world);
    await eventually(
      () => sent.length,
      (n) => n > 0,
      "the accepted receipt reached the server",
    );
    await first.stop();
    expect(runs).toBe(0);
    const second = await restart(world, path, (runner) =>
      runner.register("tasks.create", () => ({ n: ++runs }), { effect: "write" }),
    );
    await settledRun(world, runId);
    expect(runs).toBe(1);
    const [call] = await callsOf(world, runId);
    const stored = await storedReceipts(world, call.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "completed"]);
    expect(stored[0]?.body_text).toBe(sent[0]);
    await second.stop();
  });

  it("sends a confirmed write call without a journaled result to reconciliation, never re-running it", async () => {
    const world = await buildWorld(server, script("tasks.create"));
    const path = journalPath();
    const first = newRunner(world, { journalPath: path });
    let release: (error: Error) => void = () => undefined;
    let runs = 0;
    first.register(
      "tasks.create",
      () => {
        runs++;
        return new Promise((_resolve, reject) => {
          release = reject;
        });
      },
      { effect: "write" },
    );
    const fenced = new Promise((resolve) => first.on("fenced", resolve));
    const confirmed = new Promise((resolve) => first.on("confirmed", resolve));
    await first.start();
    const runId = await startRun(world);
    await confirmed;
    // The first process "dies" with its handler in flight; a new one starts on what it left on disk.
    const asked: string[] = [];
    const second = await restart(world, diskOf(path), (runner) => {
      runner.register(
        "tasks.create",
        () => {
          runs++;
          return {};
        },
        { effect: "write" },
      );
      runner.onReconcile("tasks.create", (_call, operationKey) => {
        asked.push(operationKey);
        return { kind: "completed", result: { found: operationKey } };
      });
    });
    await fenced;
    await settledRun(world, runId);
    // The run may end on the reconciliation_required receipt before the reconciled outcome lands.
    await vi.waitFor(
      async () => {
        const [settled] = await callsOf(world, runId);
        expect(settled.status).toBe("completed");
      },
      { timeout: 20_000, interval: 50 },
    );
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("completed");
    expect(runs).toBe(1);
    expect(asked).toEqual([`${runId}:${call.call_id}`]);
    const stored = await storedReceipts(world, call.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "reconciliation_required", "completed"]);
    expect(stored[1]?.body_text).toContain('"code":"outcome_unknown_after_restart"');
    release(new Error("the old process's handler ends late"));
    await first.stop();
    await second.stop();
  });

  it("runs a read call again after a restart", async () => {
    const world = await buildWorld(server, script("tasks.read"));
    const path = journalPath();
    const first = newRunner(world, { journalPath: path });
    let resolveFirst: (value: unknown) => void = () => undefined;
    first.register("tasks.read", () => new Promise((resolve) => (resolveFirst = resolve)), { effect: "read" });
    const confirmed = new Promise((resolve) => first.on("confirmed", resolve));
    await first.start();
    const runId = await startRun(world);
    await confirmed;
    let reruns = 0;
    const second = await restart(world, diskOf(path), (runner) =>
      runner.register("tasks.read", () => ({ page: ++reruns }), { effect: "read" }),
    );
    await settledRun(world, runId);
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("completed");
    expect(reruns).toBe(1);
    expect(second.stats().counters.handler_reruns).toBe(1);
    resolveFirst({ late: true });
    await first.stop();
    await second.stop();
  });
});

describe("an executor ID taken over by another key", () => {
  it("fences the runner (failed with fenced) instead of retrying with a key the server refuses", async () => {
    const world = await buildWorld(server, script("tasks.read"));
    const runner = newRunner(world, { executorId: "exec-taken-over" });
    runner.register("tasks.read", () => ({}), { effect: "read" });
    const fenced = new Promise((resolve) => runner.on("fenced", resolve));
    await runner.start();
    const other = await api(world.server, "POST", "/v1/keys", {
      name: "other product",
      scopes: ["executors:connect", "tools:execute"],
    });
    expect(other.status, other.text).toBe(201);
    const takeover = await api(
      world.server,
      "POST",
      "/v1/executors/connect",
      { executor_id: "exec-taken-over", binding_ids: [world.bindingId] },
      other.body.key,
    );
    expect(takeover.status, takeover.text).toBe(200);
    await fenced;
    const failure = await runner.done().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RunnerError);
    expect((failure as RunnerError).code).toBe("fenced");
  });
});

describe("deferred calls", () => {
  const exec = promisify(execFile);
  const helper = fileURLToPath(new URL("fixtures/complete-deferred.mjs", import.meta.url));

  it("are finished by a second process sharing the journal", async () => {
    const world = await buildWorld(server, script("tasks.slow"));
    const path = journalPath();
    const runner = newRunner(world, { journalPath: path });
    const handles: string[] = [];
    runner.register(
      "tasks.slow",
      async (_call, ctx) => {
        const handle = ctx.defer();
        handles.push(handle.id);
        await ctx.progress({ queued: true });
        return handle;
      },
      { effect: "write" },
    );
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => runner.openDeferred(),
      (open) => open.length === 1,
      "the call is deferred",
    );
    const [handle] = runner.openDeferred();
    expect(handle?.id).toBe(handles[0]);
    const { stdout } = await exec(process.execPath, [
      helper,
      server.url,
      world.executorKey,
      "exec-1",
      world.bindingId,
      path,
      handles[0] ?? "",
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ delivered: true, rejectedCode: null });
    await settledRun(world, runId);
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("completed");
    const stored = await storedReceipts(world, call.call_id);
    expect(stored.map((receipt) => receipt.kind)).toEqual(["accepted", "progress", "completed"]);
    expect(stored[2]?.body_text).toContain('"result":{"exported":true,"rows":12345678901234567890}');
    expect(runner.openDeferred()).toEqual([]);
    await expect(runner.complete(handles[0] ?? "", {})).rejects.toMatchObject({ code: "handle_finished" });
    await expect(runner.fail("dh_unknown", new Error("x"))).rejects.toBeInstanceOf(RunnerError);
    await runner.stop();
  });
});
