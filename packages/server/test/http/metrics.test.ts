// GET /metrics, black-box on each dialect: it needs metrics:read (or admin) unless metricsPublic; it
// counts receipts by kind and outcome, replays and conflicts, reports calls by status, the pending
// age, executors online and claim latency; domain events (expiry, released claims) are logged at info
// and counted; HTTP requests are timed per route template; the per-binding gauges appear only when
// asked (metricsPerBinding) and stay bounded.
import { beforeAll, describe, expect, it } from "vitest";
import { BINDING_SERIES_MAX, boundedBindingLoad, OTHER_BINDINGS } from "../../src/observability/binding-gauges.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claim,
  claimed,
  connect,
  eventually,
  expectStatus,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "../calls/calls-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { createKey, type TestServer } from "./http-harness.js";

const TIMEOUT_MS = 60_000;

/** The value of one sample (`name{labels} value`) in Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const present = (match[2] ?? "").split(",").filter((part) => part !== "");
    if (wanted.every((label) => present.includes(label)) && present.length === wanted.length) return Number(match[3]);
  }
  return undefined;
}

async function scrape(server: TestServer, key: string | undefined = admin.key): Promise<string> {
  const answer = await server.call("GET", "/metrics", key === undefined ? {} : { key });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
  return answer.text;
}

describeEachDialect("GET /metrics", (dialect) => {
  let server: ClockedServer;
  let world: World;
  beforeAll(async () => {
    server = await startClockedServer(dialect, { logLevel: "info", leaseTtlMs: 86_400_000 });
    world = await buildWorld(
      server,
      [
        { tool_calls: [{ name: "tasks.write", arguments: { title: "one" } }] },
        { tool_calls: [{ name: "tasks.write", arguments: { title: "two" } }] },
        { message: "done" },
      ],
      { timeout_ms: TIMEOUT_MS },
    );
  });

  it("refuses a request without metrics:read; a metrics:read key and admin may scrape", async () => {
    expect((await server.call("GET", "/metrics")).body.error.code).toBe("unauthorized");
    const reader = await createKey(server, { name: "other", scopes: ["runtime:read"] });
    expect((await server.call("GET", "/metrics", { key: reader.key })).body.error.code).toBe("forbidden");
    const scraper = await createKey(server, { name: "prometheus", scopes: ["metrics:read"] });
    expect(await scrape(server, scraper.key)).toContain("# TYPE toolhost_receipts_total counter");
    // The scraper key reaches nothing else.
    expect((await server.call("GET", "/v1/keys", { key: scraper.key })).status).toBe(403);
  });

  it("counts receipts by kind and outcome, replays and conflicts; reports calls, executors and claim latency", async () => {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    const executor = await connect(server, world, "mx-ex-1");
    const held = await claimed(server, world, runId, call.call_id, executor);
    // A second executor losing the claim is a 409 conflict.
    const rival = await connect(server, world, "mx-ex-2");
    expect((await claim(server, world, runId, call.call_id, rival)).status).toBe(409);
    expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);
    expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);
    const conflict = await receipt(server, world, held, { receipt_id: "a", kind: "progress" });
    expect(conflict.body.error.code).toBe("receipt_conflict");
    expectStatus(await receipt(server, world, held, { receipt_id: "c", kind: "completed", result: { id: 1 } }), 200);

    const text = await scrape(server);
    expect(sample(text, "toolhost_receipts_total", { kind: "accepted", outcome: "recorded" })).toBe(1);
    expect(sample(text, "toolhost_receipts_total", { kind: "accepted", outcome: "replayed" })).toBe(1);
    expect(sample(text, "toolhost_receipts_total", { kind: "progress", outcome: "receipt_conflict" })).toBe(1);
    expect(sample(text, "toolhost_receipts_total", { kind: "completed", outcome: "recorded" })).toBe(1);
    expect(sample(text, "toolhost_receipt_replays_total")).toBe(1);
    expect(sample(text, "toolhost_conflicts_total", { code: "receipt_conflict" })).toBe(1);
    expect(sample(text, "toolhost_conflicts_total", { code: "already_claimed" })).toBe(1);
    // Only unsettled calls are counted (a scrape reads the live calls' index, never the settled ones).
    expect(sample(text, "toolhost_calls", { status: "completed" })).toBeUndefined();
    expect(sample(text, "toolhost_calls", { status: "accepted" })).toBe(0);
    expect(sample(text, "toolhost_calls", { status: "reconciliation_required" })).toBe(0);
    expect(sample(text, "toolhost_executors_online")).toBe(2);
    expect(sample(text, "toolhost_claim_latency_seconds_count")).toBe(1);
    // The completed call queued the run's next step: one new pending call, as old as the clock says.
    expect(sample(text, "toolhost_calls", { status: "pending" })).toBe(1);
    server.clock.advance(5_000);
    expect(sample(await scrape(server), "toolhost_oldest_pending_call_age_seconds")).toBe(5);
  });

  it("times requests by method, route template and status class; process and Node families are there", async () => {
    const runId = await startRun(server, world);
    expect((await server.call("GET", `/v1/runs/${runId}`, admin)).status).toBe(200);
    expect((await server.call("GET", "/v1/runs/run_missing", admin)).status).toBe(404);
    expect((await server.call("GET", "/no/such/path", admin)).status).toBe(404);
    const text = await scrape(server);
    const count = (labels: Record<string, string>) =>
      sample(text, "http_server_request_duration_seconds_count", labels);
    expect(count({ method: "GET", route: "/v1/runs/:run_id", status_class: "2xx" })).toBe(1);
    expect(count({ method: "GET", route: "/v1/runs/:run_id", status_class: "4xx" })).toBe(1);
    expect(count({ method: "GET", route: "unmatched", status_class: "4xx" })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(runId);
    expect(text).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
  });

  it("logs a call's expiry at info with its IDs and counts it", async () => {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    server.clock.advance(TIMEOUT_MS);
    await eventually(
      () =>
        Promise.resolve(
          server.logs.records().filter((record) => record.event === "call_expired" && record.call_id === call.call_id),
        ),
      (records) => records.length === 1,
      "the expiry is logged",
    );
    const [logged] = server.logs.records().filter((record) => record.call_id === call.call_id && record.event);
    expect(logged).toMatchObject({ level: "info", run_id: runId, event: "call_expired" });
    expect(
      sample(await scrape(server), "toolhost_domain_events_total", { event: "call_expired" }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describeEachDialect("GET /metrics with metricsPublic", (dialect) => {
  it("answers without a credential", async () => {
    const server = await startClockedServer(dialect, { metricsPublic: true });
    expect(await scrape(server, undefined)).toContain("toolhost_executors_online 0");
    await server.close();
  });
});

describeEachDialect("GET /metrics per binding (metricsPerBinding)", (dialect) => {
  it("reports pending calls and online executors by binding only when asked; totals always", async () => {
    const plain = await startClockedServer(dialect, {});
    const plainWorld = await buildWorld(plain, [{ tool_calls: [{ name: "tasks.write", arguments: { title: "x" } }] }]);
    await startRun(plain, plainWorld);
    const plainText = await scrape(plain);
    expect(plainText).not.toContain("toolhost_binding_pending_calls");
    expect(sample(plainText, "toolhost_calls", { status: "pending" })).toBe(1);
    await plain.close();

    const server = await startClockedServer(dialect, { metricsPerBinding: true, leaseTtlMs: 86_400_000 });
    const step = [{ tool_calls: [{ name: "tasks.write", arguments: { title: "y" } }] }];
    const busy = await buildWorld(server, step);
    const quiet = await buildWorld(server, step);
    await startRun(server, busy);
    await startRun(server, busy);
    await startRun(server, quiet);
    await connect(server, busy, "pb-ex-1");
    await connect(server, busy, "pb-ex-2");
    const text = await scrape(server);
    expect(text).toContain("# TYPE toolhost_binding_pending_calls gauge");
    expect(sample(text, "toolhost_binding_pending_calls", { binding: busy.bindingId })).toBe(2);
    expect(sample(text, "toolhost_binding_pending_calls", { binding: quiet.bindingId })).toBe(1);
    expect(sample(text, "toolhost_binding_executors_online", { binding: busy.bindingId })).toBe(2);
    expect(sample(text, "toolhost_binding_executors_online", { binding: quiet.bindingId })).toBe(0);
    expect(sample(text, "toolhost_executors_online")).toBe(2);
    await server.close();
  });
});

describe("per-binding gauges bound", () => {
  it("gives the busiest bindings a series each and sums the rest under _other", () => {
    const pending = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`b${i}`, i + 1]));
    const { pending: kept, online } = boundedBindingLoad(
      { pending_by_binding: pending, executors_online_by_binding: { b0: 3, idle: 1 } },
      3,
    );
    expect([...kept]).toEqual([
      ["b4", 5],
      ["b3", 4],
      ["b2", 3],
      [OTHER_BINDINGS, 2 + 1 + 0],
    ]);
    expect(online.get(OTHER_BINDINGS)).toBe(4);
    expect(BINDING_SERIES_MAX).toBe(100);
  });
});
