// The client's run helpers against a real server: waitForRun resolves when the run ends (an
// executor's receipts end it after the wait began) and times out with RunWaitTimeout; runEvents
// yields the stream's events in order until the terminal run.status, resumes after lastEventId, and
// when a connection ends early it reconnects with Last-Event-ID and loses or repeats nothing; an
// unknown run is a ToolhostApiError.
import { beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  buildWorld,
  claimed,
  connect,
  expectStatus,
  listCalls,
  receipt,
  startRun,
  type World,
} from "../../server/test/calls/calls-harness.js";
import { startTestServer, type TestServer } from "../../server/test/http/http-harness.js";
import { describeDialect } from "../../server/test/support/test-databases.js";
import { createToolhostClient, type RunEvent, RunWaitTimeout, ToolhostApiError } from "../src/index.js";

const SCRIPT = [{ tool_calls: [{ name: "tasks.write", arguments: { title: "one" } }] }, { message: "done" }];

describeDialect("sqlite", "the client's run helpers", () => {
  let server: TestServer;
  let world: World;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { eventPollIntervalMs: 20 });
    world = await buildWorld(server, SCRIPT);
  });
  const client = (fetch?: (request: Request) => Promise<Response>) =>
    createToolhostClient({ baseUrl: server.url, apiKey: admin.key, ...(fetch === undefined ? {} : { fetch }) });

  /** Completes the run's one call as an executor would. */
  async function complete(runId: string, executorId: string): Promise<void> {
    const [call] = await listCalls(server, runId);
    const held = await claimed(server, world, runId, call.call_id, await connect(server, world, executorId));
    expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);
    expectStatus(await receipt(server, world, held, { receipt_id: "c", kind: "completed", result: { id: 1 } }), 200);
  }

  it("waitForRun resolves with the ended run, and times out on one that does not end", async () => {
    const runId = await startRun(server, world);
    const waiting = client().waitForRun(runId, { timeoutMs: 20_000 });
    await complete(runId, "helpers-ex-1");
    expect(await waiting).toMatchObject({ run_id: runId, status: "completed", output: "done" });
    // An ended run answers at once.
    expect((await client().waitForRun(runId)).status).toBe("completed");
    const stuck = await startRun(server, world);
    const timedOut = await client()
      .waitForRun(stuck, { timeoutMs: 300 })
      .catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(RunWaitTimeout);
    expect(timedOut).toMatchObject({ runId: stuck, status: "waiting_for_tools" });
  });

  it("runEvents yields every event in order until the run ends, and resumes after lastEventId", async () => {
    const runId = await startRun(server, world);
    await complete(runId, "helpers-ex-2");
    const events: RunEvent[] = [];
    for await (const event of client().runEvents(runId)) events.push(event);
    expect(events.map((event) => Number(event.id))).toEqual(events.map((_, i) => i + 1));
    const last = events.at(-1);
    expect(last).toMatchObject({ event: "run.status", data: { status: "completed" } });
    expect(events.some((event) => event.event === "tool_call.status")).toBe(true);
    const resumed: RunEvent[] = [];
    for await (const event of client().runEvents(runId, { lastEventId: "2" })) resumed.push(event);
    expect(resumed.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
  });

  it("reconnects with Last-Event-ID when a connection ends before the run, losing and repeating nothing", async () => {
    const runId = await startRun(server, world);
    const sent: Array<string | null> = [];
    // Each connection is cut after its first event, as a proxy's idle timeout or a restart would.
    const cutting = async (request: Request): Promise<Response> => {
      sent.push(request.headers.get("last-event-id"));
      const response = await fetch(request);
      if (!request.url.endsWith("/events") || response.body === null) return response;
      const reader = response.body.getReader();
      let text = "";
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          controller.enqueue(value);
          text += new TextDecoder().decode(value);
          if (text.includes("\n\n")) {
            await reader.cancel();
            controller.close();
          }
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const seen: RunEvent[] = [];
    const following = (async () => {
      for await (const event of client(cutting).runEvents(runId)) seen.push(event);
    })();
    await complete(runId, "helpers-ex-3");
    await following;
    expect(seen.map((event) => Number(event.id))).toEqual(seen.map((_, i) => i + 1));
    expect(seen.at(-1)).toMatchObject({ event: "run.status", data: { status: "completed" } });
    // The first connection starts from the beginning; each later one resumes after an event already seen.
    expect(sent[0]).toBeNull();
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const id of sent.slice(1)) expect(seen.map((event) => event.id)).toContain(id);
  });

  it("refuses an unknown run with the API's error", async () => {
    const refused = await (async () => {
      for await (const _ of client().runEvents("run_missing")) return undefined;
    })().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolhostApiError);
    expect(refused).toMatchObject({ status: 404, code: "not_found" });
    await expect(client().waitForRun("run_missing")).rejects.toMatchObject({ status: 404 });
  });
});

describe("createToolhostClient", () => {
  it("keeps the typed methods beside the helpers", () => {
    const made = createToolhostClient({ baseUrl: "http://127.0.0.1:9/" });
    expect(typeof made.GET).toBe("function");
    expect(typeof made.waitForRun).toBe("function");
    expect(typeof made.runEvents).toBe("function");
  });
});
