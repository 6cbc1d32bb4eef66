// ToolRunner with and without the batched routes, against a real server: when connect offers `batch`,
// claims come with the pending answer (no claim requests) and receipts go through the batch route
// (no per-call receipt requests); when it does not (an older server: the offer is taken out of the
// connect answer here) or `batching: false`, only the per-call routes are used. Either way the run
// completes with every call run once and its receipts stored. A batch refused as a whole (422) makes
// the runner send those receipts one by one.
import { beforeAll, describe, expect, it } from "vitest";
import type { ToolRunner } from "../src/index.js";
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
  type World,
} from "./support/server-world.js";

const THREE_CREATES = [
  {
    tool_calls: [
      { name: "tasks.create", arguments: { title: "one" } },
      { name: "tasks.create", arguments: { title: "two" } },
      { name: "tasks.create", arguments: { title: "three" } },
    ],
  },
  { message: "done" },
];

/** A request the runner sent, as method and path (query included). */
type Sent = { method: string; url: string };

/** A fetch that records requests; `rewrite` may answer instead of the server or change its answer. */
function recordingFetch(
  sent: Sent[],
  rewrite: (url: string, response: Response) => Promise<Response> = async (_url, response) => response,
): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    sent.push({ method: init?.method ?? "GET", url: new URL(url).pathname + new URL(url).search });
    return rewrite(url, await fetch(input, init));
  };
}

/** The connect answer without its `batch` offer: what a server without the batched routes answers. */
async function withoutOffer(url: string, response: Response): Promise<Response> {
  if (!url.endsWith("/v1/executors/connect") || response.status !== 200) return response;
  const body = (await response.json()) as Record<string, unknown>;
  delete body.batch;
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

async function runThree(world: World, runner: ToolRunner): Promise<string[]> {
  const ran: string[] = [];
  runner.register(
    "tasks.create",
    async (call) => {
      const title = (call.arguments as { title: string }).title;
      ran.push(title);
      return { title };
    },
    { effect: "write" },
  );
  await runner.start();
  const runId = await startRun(world);
  expect(await settledRun(world, runId)).toMatchObject({ status: "completed", output: "done" });
  const calls = await callsOf(world, runId);
  expect(calls.map((call) => call.status)).toEqual(["completed", "completed", "completed"]);
  for (const call of calls) {
    const kinds = (await storedReceipts(world, call.call_id)).map((receipt) => receipt.kind);
    expect(kinds).toEqual(["accepted", "completed"]);
  }
  await eventually(
    () => runner.stats().journal?.outboxPending ?? -1,
    (n) => n === 0,
    "the outbox is empty",
  );
  await runner.stop();
  expect([...ran].sort()).toEqual(["one", "three", "two"]);
  return calls.map((call) => call.call_id);
}

const isClaim = (s: Sent) => s.method === "POST" && /\/tool-calls\/[^/]+\/claim$/.test(s.url);
const isReceipt = (s: Sent) => s.method === "POST" && /\/tool-calls\/[^/]+\/receipts$/.test(s.url);
const isBatch = (s: Sent) => s.method === "POST" && /^\/v1\/executors\/[^/]+\/receipts$/.test(s.url);
const claimingPoll = (s: Sent) => s.method === "GET" && /\/pending\?.*claim=/.test(s.url);

describe("batched routes", () => {
  it("when offered: claims come with pending and receipts go in batches, no per-call claims or receipts", async () => {
    const world = await buildWorld(server, THREE_CREATES);
    const sent: Sent[] = [];
    const runner = newRunner(world, { fetch: recordingFetch(sent), executorId: "batch-on" });
    await runThree(world, runner);
    expect(sent.some(claimingPoll)).toBe(true);
    expect(sent.filter(isClaim)).toEqual([]);
    expect(sent.filter(isReceipt)).toEqual([]);
    expect(sent.filter(isBatch).length).toBeGreaterThan(0);
    expect(runner.stats().counters.claims_batched).toBe(3);
    expect(runner.stats().counters.claims_attempted).toBe(0);
    expect(runner.stats().counters.receipts_acked).toBe(6);
  });

  it("an older server without the offer: per-call claims and receipts only", async () => {
    const world = await buildWorld(server, THREE_CREATES);
    const sent: Sent[] = [];
    const runner = newRunner(world, { fetch: recordingFetch(sent, withoutOffer), executorId: "batch-old" });
    await runThree(world, runner);
    expect(sent.some(claimingPoll)).toBe(false);
    expect(sent.filter(isBatch)).toEqual([]);
    expect(sent.filter(isClaim).length).toBeGreaterThanOrEqual(3);
    expect(sent.filter(isReceipt).length).toBe(6);
    expect(runner.stats().counters.claims_batched).toBe(0);
  });

  it("batching: false keeps to the per-call routes on a server that offers batches", async () => {
    const world = await buildWorld(server, THREE_CREATES);
    const sent: Sent[] = [];
    const runner = newRunner(world, { fetch: recordingFetch(sent), executorId: "batch-off", batching: false });
    await runThree(world, runner);
    expect(sent.some(claimingPoll)).toBe(false);
    expect(sent.filter(isBatch)).toEqual([]);
    expect(sent.filter(isReceipt).length).toBe(6);
  });

  it("a batch refused as a whole (422) is sent again receipt by receipt", async () => {
    const world = await buildWorld(server, THREE_CREATES);
    const sent: Sent[] = [];
    const refuseBatches = async (url: string, response: Response): Promise<Response> => {
      if (!/\/v1\/executors\/[^/]+\/receipts$/.test(new URL(url).pathname)) return response;
      await response.text();
      const error = { error: { code: "validation_failed", message: "refused by the test" } };
      return new Response(JSON.stringify(error), { status: 422, headers: { "content-type": "application/json" } });
    };
    const runner = newRunner(world, { fetch: recordingFetch(sent, refuseBatches), executorId: "batch-422" });
    await runThree(world, runner);
    expect(sent.filter(isBatch).length).toBeGreaterThan(0);
    expect(sent.filter(isReceipt).length).toBe(6);
    expect(runner.stats().counters.receipts_rejected).toBe(0);
  });
});
