// The runner under broken and hostile answers, against a real server (behind a local node:http proxy
// where an answer must be broken): an HTML 200 or a wrong-shaped 200 to heartbeats is retried and
// recovered from, never thrown into the host process; a loop that throws fails the runner with a
// typed error; a key without tools:execute costs a handful of refused claims and one warning, then
// fails the runner; a revoked key fails it; a candidate of an unregistered tool is warned about once
// and never claimed.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RunnerError, type RunnerEventMap } from "../src/index.js";
import { type AnswerProxy, HTML_PAGE, startAnswerProxy } from "./support/answer-proxy.js";
import {
  api,
  buildWorld,
  callsOf,
  eventually,
  expectStatus,
  newRunner,
  settledRun,
  startRun,
  startTestServer,
  type TestServer,
  type World,
} from "./support/server-world.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

/** What reached the host process unhandled while a test ran (vitest reports these too). */
let escaped: unknown[] = [];
const record = (error: unknown): void => {
  escaped.push(error);
};
beforeEach(() => {
  escaped = [];
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
});
afterEach(() => {
  process.off("uncaughtException", record);
  process.off("unhandledRejection", record);
  expect(escaped).toEqual([]);
});

/** Resolves after `ms` (a window to count requests in; nothing asserts on durations). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A logger keeping every line. */
function capturingLogger() {
  const lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      lines.push({ level, message, fields });
  return {
    lines,
    warnings: () => lines.filter((line) => line.level === "warn"),
    logger: { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") },
  };
}

const ONE_CREATE = [{ tool_calls: [{ name: "tasks.create", arguments: { title: "x" } }] }, { message: "done" }];
const isHeartbeat = (path: string) => path.endsWith("/heartbeat");
const isClaim = (path: string) => path.endsWith("/claim");

/** A world whose runner talks to the server through a proxy. */
async function proxiedWorld(script = ONE_CREATE): Promise<{ world: World; proxy: AnswerProxy }> {
  const world = await buildWorld(server, script);
  return { world, proxy: await startAnswerProxy(server.url) };
}

describe("answers the runner cannot read", () => {
  it("retries heartbeats answered with an HTML 200 or a wrong-shaped 200, warns once, and recovers", async () => {
    const { world, proxy } = await proxiedWorld();
    const log = capturingLogger();
    const runner = newRunner(world, { baseUrl: proxy.url, logger: log.logger });
    runner.register("tasks.create", () => ({ ok: true }), { effect: "write" });
    await runner.start();
    const heartbeats = () => proxy.requests.filter((request) => isHeartbeat(request.path)).length;

    let broken = { ...HTML_PAGE };
    proxy.override = (request) => (isHeartbeat(request.path) ? broken : undefined);
    const before = heartbeats();
    await eventually(heartbeats, (n) => n >= before + 4, "four heartbeats answered with a proxy's page");
    broken = { status: 200, contentType: "application/json", body: '{"status":"ok"}' };
    const shapeFrom = heartbeats();
    await eventually(heartbeats, (n) => n >= shapeFrom + 3, "three heartbeats answered with the wrong shape");
    expect(runner.state).toBe("started");
    // Read back by the runner (the proxy counts a request before the runner reads its answer).
    await eventually(
      () => runner.stats().counters.malformed_answers,
      (n) => n >= 7,
      "seven unreadable heartbeat answers counted",
    );

    proxy.override = () => undefined;
    const answered = runner.stats().counters.heartbeats_sent;
    await eventually(
      () => runner.stats().counters.heartbeats_sent,
      (n) => n > answered,
      "a heartbeat is answered properly again",
    );
    // One warning for the streak of unreadable answers (the HTML page, then the wrong shape), not one per attempt.
    const heartbeatWarnings = log.warnings().filter((line) => line.fields.channel === "heartbeat");
    expect(heartbeatWarnings.map((line) => line.fields.code)).toEqual(["malformed_answer"]);
    expect(String(heartbeatWarnings[0]?.fields.detail)).toContain("not JSON");
    expect(log.lines.some((line) => line.level === "info" && line.message === "heartbeat requests work again")).toBe(
      true,
    );

    // Still a working executor.
    const runId = await startRun(world);
    expect((await settledRun(world, runId)).status).toBe("completed");
    expect(runner.state).toBe("started");
    await runner.stop();
    expect(runner.state).toBe("stopped");
    await expect(runner.done()).resolves.toBeUndefined();
  });

  it("fails the runner with a typed error (never an unhandled rejection) when a loop throws", async () => {
    const { world, proxy } = await proxiedWorld();
    let entropy = true;
    const runner = newRunner(world, {
      baseUrl: proxy.url,
      // A product-supplied function that throws inside the heartbeat loop (it jitters the retry).
      random: () => {
        if (!entropy) throw new Error("entropy exhausted");
        return 0.5;
      },
    });
    const failed: Array<RunnerEventMap["failed"]> = [];
    runner.on("failed", (payload) => failed.push(payload));
    await runner.start();
    entropy = false;
    proxy.override = (request) => (isHeartbeat(request.path) ? HTML_PAGE : undefined);
    const error = await runner.done().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RunnerError);
    expect(error).toMatchObject({ code: "internal_failure" });
    expect(((error as RunnerError).cause as Error).message).toBe("entropy exhausted");
    expect(runner.state).toBe("failed");
    expect(runner.failure).toBe(error);
    expect(failed.map((payload) => payload.code)).toEqual(["internal_failure"]);
    await runner.stop(); // stopping a failed runner is harmless
    expect(runner.state).toBe("failed");
  });
});

describe("refusals that will not go away", () => {
  it("backs claims off when the key lacks tools:execute: a handful of refused claims, one warning, then failed", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const key = expectStatus(
      await api(server, "POST", "/v1/keys", { name: "connect only", scopes: ["executors:connect"] }),
      201,
    );
    const claims: number[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      // A pending poll asking for claims (`claim=N`, batched routes) is a claim request too.
      if (isClaim(String(input)) || /\/pending\?.*claim=/.test(String(input))) claims.push(Date.now());
      return fetch(input, init);
    };
    const log = capturingLogger();
    const runner = newRunner(world, {
      apiKey: key.key,
      fetch: countingFetch,
      logger: log.logger,
      retryBackoffMinMs: 100,
      retryBackoffMaxMs: 1_000,
      refusalGraceMs: 2_000,
    });
    runner.register("tasks.create", () => ({ ok: true }), { effect: "write" });
    const failed: Array<RunnerEventMap["failed"]> = [];
    runner.on("failed", (payload) => failed.push(payload));
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => claims.length,
      (n) => n >= 1,
      "a first claim",
    );
    // A window of 1.5 s of refusals with back-off from 100 ms: a handful of claims, not hundreds.
    await pause(1_500);
    const inWindow = claims.filter((at) => at - (claims[0] ?? 0) <= 1_500).length;
    expect(inWindow).toBeGreaterThanOrEqual(2);
    expect(inWindow).toBeLessThanOrEqual(6);
    const warnings = log.warnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("the server refuses claim requests (403 forbidden)");
    expect(warnings[0]?.message).toContain("tools:execute");

    // The refusal outlasts refusalGraceMs: the runner fails with a clear reason.
    const error = await runner.done().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toMatchObject({ code: "access_refused", details: { channel: "claim", status: 403 } });
    expect(runner.state).toBe("failed");
    expect(failed.map((payload) => payload.code)).toEqual(["access_refused"]);
    expect(claims.length).toBeLessThanOrEqual(8);
    expect(runner.stats().counters.refusals).toBe(claims.length);
    expect(log.warnings()).toHaveLength(1);
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("pending");
  });

  it("fails the runner with access_refused once a revoked key stays refused past refusalGraceMs", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const key = expectStatus(
      await api(server, "POST", "/v1/keys", { name: "revoked soon", scopes: ["executors:connect", "tools:execute"] }),
      201,
    );
    const log = capturingLogger();
    const runner = newRunner(world, { apiKey: key.key, logger: log.logger, refusalGraceMs: 500 });
    runner.register("tasks.create", () => ({ ok: true }), { effect: "write" });
    await runner.start();
    expectStatus(await api(server, "DELETE", `/v1/keys/${key.key_id}`), 200);
    await expect(runner.done()).rejects.toMatchObject({ code: "access_refused", details: { status: 401 } });
    expect(runner.state).toBe("failed");
    expect(runner.failure?.message).toContain("unknown or revoked");
    // Each channel warns once (heartbeat, pending), whatever the number of attempts.
    const perChannel = new Map<unknown, number>();
    for (const line of log.warnings())
      perChannel.set(line.fields.channel, (perChannel.get(line.fields.channel) ?? 0) + 1);
    for (const [channel, count] of perChannel) expect(count, String(channel)).toBe(1);
    expect(runner.stats().counters.refusals).toBeGreaterThanOrEqual(2);
  });
});

describe("candidates the runner cannot serve", () => {
  it("warns once per unregistered tool and never claims its calls", async () => {
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.read", arguments: {} }] },
      { message: "done" },
    ]);
    const claims: string[] = [];
    const log = capturingLogger();
    const runner = newRunner(world, {
      logger: log.logger,
      fetch: (input, init) => {
        if (isClaim(String(input))) claims.push(String(input));
        return fetch(input, init);
      },
    });
    runner.register("tasks.create", () => ({ ok: true }), { effect: "write" });
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => callsOf(world, runId),
      (calls) => calls.length === 1,
      "the call exists",
    );
    // A call of a tool the connection does not declare wakes none of its long-polls (docs/executors.md):
    // the candidate shows in the polls that end on their own.
    await eventually(
      () => runner.stats().counters.candidates_unserved,
      (n) => n >= 3,
      "three polls listing the candidate",
    );
    expect(claims).toEqual([]);
    const warnings = log.warnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("no handler for");
    expect(warnings[0]?.fields).toMatchObject({ tool: "tasks.read", bindingId: world.bindingId });
    expect(runner.stats().counters.candidates_unserved).toBeGreaterThanOrEqual(3);
    const [call] = await callsOf(world, runId);
    expect(call.status).toBe("pending");
    await runner.stop();
  });
});

describe("the runner's life", () => {
  it("created → stopping → stopped: stop() on a runner never started; done() resolves", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const runner = newRunner(world);
    expect(runner.state).toBe("created");
    await runner.stop();
    expect(runner.state).toBe("stopped");
    await expect(runner.done()).resolves.toBeUndefined();
    await expect(runner.start()).rejects.toMatchObject({ code: "invalid_lifecycle" });
  });

  it("starting → failed: start() and done() reject with connect_refused when the server refuses the connection", async () => {
    const world = await buildWorld(server, ONE_CREATE);
    const key = expectStatus(
      await api(server, "POST", "/v1/keys", { name: "no connect", scopes: ["tools:execute"] }),
      201,
    );
    const runner = newRunner(world, { apiKey: key.key });
    const failed: string[] = [];
    runner.on("failed", ({ code }) => failed.push(code));
    const started = runner.start();
    await expect(started).rejects.toMatchObject({ code: "connect_refused", details: { status: 403 } });
    expect(runner.state).toBe("failed");
    await expect(runner.done()).rejects.toBe(runner.failure);
    expect(failed).toEqual(["connect_refused"]);
    await runner.stop();
    expect(runner.state).toBe("failed");
    await expect(runner.start()).rejects.toMatchObject({ code: "invalid_lifecycle" });
  });

  it("starting → stopping → stopped: a stop while connect is answered with a proxy's page ends the start", async () => {
    const { world, proxy } = await proxiedWorld();
    proxy.override = (request) => (request.path === "/v1/executors/connect" ? HTML_PAGE : undefined);
    const runner = newRunner(world, { baseUrl: proxy.url });
    const started = runner.start();
    // The counter, not the proxy's request count: a request the proxy saw may not be read back yet.
    await eventually(
      () => runner.stats().counters.malformed_answers,
      (n) => n >= 3,
      "three connects answered with a proxy's page, read as malformed",
    );
    expect(runner.state).toBe("starting");
    expect(proxy.requests.filter((request) => request.path === "/v1/executors/connect").length).toBeGreaterThanOrEqual(
      3,
    );
    await runner.stop();
    await expect(started).resolves.toBeUndefined();
    expect(runner.state).toBe("stopped");
    await expect(runner.done()).resolves.toBeUndefined();
  });
});
