// Metrics that see the runner's own traffic: a call completed by a real ToolRunner (batched routes:
// claims through `pending?claim=N`, receipts through the batch route; and the per-call routes) shows
// on the server's /metrics as receipts, claims and HTTP requests per route template, next to the
// process_* and nodejs_* families; and the runner's stats() show on the prom-client registry the
// product passed in, labelled by executor.
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { familiesOf, parsePrometheusText, sumOf } from "../../server/test/support/prometheus-text.js";
import {
  ADMIN_KEY,
  buildWorld,
  callsOf,
  eventually,
  newRunner,
  startRun,
  startTestServer,
} from "./support/server-world.js";

describe.each([
  ["batched", true],
  ["per-call routes", false],
])("metrics after a runner-driven call (%s)", (label, batching) => {
  it("counts its claim and receipts on the server and exports the runner's counters", async () => {
    const server = await startTestServer();
    const world = await buildWorld(server, [
      { tool_calls: [{ name: "tasks.create", arguments: { title: "Buy milk" } }] },
      { message: "done" },
    ]);
    const registry = new Registry();
    const executorId = `metrics-ex-${batching}`;
    const runner = newRunner(world, { executorId, batching, metricsRegistry: registry });
    runner.register("tasks.create", async () => ({ task_id: "t-1" }), { effect: "write" });
    await runner.start();
    const runId = await startRun(world);
    await eventually(
      () => callsOf(world, runId),
      (calls) => calls[0]?.status === "completed",
      `the call completes (${label})`,
    );
    await runner.stop();

    const answer = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(answer.status).toBe(200);
    const scrape = parsePrometheusText(await answer.text());
    expect(sumOf(scrape, "toolhost_receipts_total", { kind: "accepted", outcome: "recorded" })).toBe(1);
    expect(sumOf(scrape, "toolhost_receipts_total", { kind: "completed", outcome: "recorded" })).toBe(1);
    expect(sumOf(scrape, "toolhost_claim_latency_seconds_count")).toBe(1);
    // RED: per route template and status class, never per path.
    expect(scrape.types.get("http_server_request_duration_seconds")).toBe("histogram");
    const pendingRoute = "/v1/executors/:executor_id/pending";
    const receiptRoute = batching
      ? "/v1/executors/:executor_id/receipts"
      : "/v1/runs/:run_id/tool-calls/:call_id/receipts";
    for (const route of [pendingRoute, receiptRoute, "/v1/executors/connect"]) {
      const count = sumOf(scrape, "http_server_request_duration_seconds_count", { route, status_class: "2xx" });
      expect(count, route).toBeGreaterThanOrEqual(1);
    }
    const routes = new Set(scrape.samples.map((sample) => sample.labels.route).filter((route) => route !== undefined));
    expect([...routes].filter((route) => route.includes(runId) || route.includes(executorId))).toEqual([]);
    expect(familiesOf(scrape, "process_").length).toBeGreaterThan(0);
    expect(familiesOf(scrape, "nodejs_").length).toBeGreaterThan(0);

    // The runner's registry: its stats() as counters and gauges, labelled by executor.
    const mine = parsePrometheusText(await registry.metrics());
    const counters = runner.stats().counters;
    expect(mine.types.get("toolhost_runner_handlers_completed_total")).toBe("counter");
    expect(sumOf(mine, "toolhost_runner_handlers_completed_total", { executor_id: executorId })).toBe(1);
    expect(sumOf(mine, "toolhost_runner_receipts_acked_total", { executor_id: executorId })).toBe(
      counters.receipts_acked,
    );
    expect(counters.receipts_acked).toBe(2);
    expect(sumOf(mine, "toolhost_runner_connected", { executor_id: executorId })).toBe(0);
    await server.close();
  });
});

describe("several runners on one registry", () => {
  it("share one family per metric, one series per executor", async () => {
    const server = await startTestServer();
    const world = await buildWorld(server, [{ message: "done" }]);
    const registry = new Registry();
    const a = newRunner(world, { executorId: "shared-a", metricsRegistry: registry });
    const b = newRunner(world, { executorId: "shared-b", metricsRegistry: registry });
    await Promise.all([a.start(), b.start()]);
    const scrape = parsePrometheusText(await registry.metrics());
    const connects = scrape.samples.filter((sample) => sample.name === "toolhost_runner_connects_total");
    expect(connects.map((sample) => sample.labels.executor_id).sort()).toEqual(["shared-a", "shared-b"]);
    expect(sumOf(scrape, "toolhost_runner_connected")).toBe(2);
    await Promise.all([a.stop(), b.stop()]);
    await server.close();
  });

  it("refuses a metricsRegistry that is not one", () => {
    const world = { server: { url: "http://127.0.0.1:9" }, executorKey: "k", bindingId: "b" } as never;
    expect(() => newRunner(world, { metricsRegistry: {} as never })).toThrow(/option metricsRegistry/);
  });
});
