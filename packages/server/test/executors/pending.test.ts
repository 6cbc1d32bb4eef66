// GET /v1/executors/{id}/pending: paged candidates without arguments or grants, the long-poll (woken
// in process when a call appears, empty after wait_ms, ended by shutdown), and its query validation.
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import {
  addCalls,
  connect,
  createKey,
  type ExecutorServer,
  executorPath,
  startExecutorServer,
  TEST_TIMING,
} from "./executor-harness.js";

const iso = (ms: number): string => new Date(ms).toISOString();

describeEachDialect("executor pending", (dialect) => {
  let server: ExecutorServer;
  let connectionId: string;
  const pending = (query: Record<string, string | number> = {}) =>
    server.call("GET", executorPath("e1", "pending", { connection_id: connectionId, ...query }), { key: server.key });

  beforeEach(async () => {
    server = await startExecutorServer(dialect);
    connectionId = (await connect(server, "e1", ["b1", "b2"])).connection_id;
  });
  afterEach(async () => {
    await server.close();
  });

  it("lists claimable calls of the connection's bindings, oldest first, with IDs, tool, binding and time only", async () => {
    await addCalls(server, [
      ["c1", { created_at_ms: 6_001, arguments_json: '{"secret":"s3cr3t-argument"}' }],
      ["c2", { created_at_ms: 6_002, binding_id: "b2", tool_name: "tool_1" }],
      ["c3", { created_at_ms: 6_003, binding_id: "b3" }],
      [
        "c4",
        {
          created_at_ms: 6_004,
          status: "claimed",
          executor_id: "e2",
          claim_id: "k",
          grant_hash: "h",
          accept_deadline_ms: 90_000,
        },
      ],
    ]);
    const answer = await pending();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        { run_id: "r1", call_id: "c1", tool_name: "tool_0", binding_id: "b1", created_at: iso(6_001) },
        { run_id: "r1", call_id: "c2", tool_name: "tool_1", binding_id: "b2", created_at: iso(6_002) },
      ],
      cancellations: [],
      next_cursor: null,
    });
    expect(answer.text).not.toMatch(/arguments|s3cr3t|grant/);
  });

  it("a poll on a connection it found live before still answers why once it is not: superseded, detached, lapsed", async () => {
    await addCalls(server, [["c1", { created_at_ms: 6_001 }]]);
    // The first poll reads the executor and remembers the connection; the next checks it in its own statement.
    for (let i = 0; i < 2; i++) expect((await pending()).body.data).toHaveLength(1);
    const superseded = connectionId;
    connectionId = (await connect(server, "e1", ["b1", "b2"])).connection_id;
    const old = await server.call("GET", executorPath("e1", "pending", { connection_id: superseded }), {
      key: server.key,
    });
    expect(old.status).toBe(409);
    expect(old.body.error).toMatchObject({ code: "connection_superseded", details: { current_epoch: 2 } });
    for (let i = 0; i < 2; i++) expect((await pending()).body.data).toHaveLength(1);
    const detached = await server.call("POST", executorPath("e1", "disconnect"), {
      key: server.key,
      body: { connection_id: connectionId },
    });
    expect(detached.status).toBe(200);
    const afterDetach = await pending();
    expect(afterDetach.status).toBe(409);
    expect(afterDetach.body.error).toMatchObject({ code: "connection_offline" });
    connectionId = (await connect(server, "e1", ["b1", "b2"])).connection_id;
    for (let i = 0; i < 2; i++) expect((await pending()).body.data).toHaveLength(1);
    server.clock.advance(TEST_TIMING.leaseTtlMs);
    const lapsed = await pending();
    expect(lapsed.status).toBe(409);
    expect(lapsed.body.error).toMatchObject({ code: "connection_offline" });
    // Another key never reaches the remembered connection: 403, as on a first poll.
    const stranger = await createKey(server.url, {
      name: "stranger",
      scopes: ["executors:connect"],
      bindings: ["b1", "b2"],
    });
    const foreign = await server.call("GET", executorPath("e1", "pending", { connection_id: connectionId }), {
      key: stranger,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: "executor_key_mismatch" });
  });

  it("pages with limit and cursor", async () => {
    await addCalls(
      server,
      Array.from(
        { length: 5 },
        (_, i) => [`c${i}`, { created_at_ms: 6_000 + i }] as [string, { created_at_ms: number }],
      ),
    );
    const seen: string[][] = [];
    let cursor: string | null = null;
    do {
      const answer = await pending(cursor === null ? { limit: 2 } : { limit: 2, cursor });
      expect(answer.status).toBe(200);
      seen.push(answer.body.data.map((call: { call_id: string }) => call.call_id));
      cursor = answer.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual([["c0", "c1"], ["c2", "c3"], ["c4"]]);
    const bad = await pending({ cursor: "not-a-cursor" });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: "validation_failed", pointer: "/cursor" });
  });

  it("a long-poll is woken in process when a call appears, and answers with it", async () => {
    // Add the call only once the request's first query found nothing, so the answer can only come
    // from the wake-up (without it, the request would answer an empty list after 25 s).
    const store = server.server.storage.pendingCalls;
    const poll = store.poll.bind(store);
    let queries = 0;
    let firstQueryDone: () => void = () => undefined;
    const firstQuery = new Promise<void>((resolve) => {
      firstQueryDone = resolve;
    });
    store.poll = async (...args) => {
      const answer = await poll(...args);
      queries++;
      firstQueryDone();
      return answer;
    };
    const polling = pending({ wait_ms: 25_000 });
    await firstQuery;
    await addCalls(server, [["c-new", { created_at_ms: 6_500 }]]);
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      { run_id: "r1", call_id: "c-new", tool_name: "tool_0", binding_id: "b1", created_at: iso(6_500) },
    ]);
    expect(queries).toBe(2);
  });

  it("a long-poll ignores wake-ups of other bindings and answers an empty list once wait_ms ran out", async () => {
    const polling = pending({ wait_ms: 400 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await addCalls(server, [["c-elsewhere", { binding_id: "b3" }]]);
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: [], cancellations: [], next_cursor: null });
  });

  it("a long-poll in progress answers (empty) when the server shuts down", async () => {
    const polling = pending({ wait_ms: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server.close();
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
  });

  it("lists the business cancellations of calls the executor holds", async () => {
    await addCalls(server, [
      [
        "c1",
        {
          status: "claimed",
          executor_id: "e1",
          claim_id: "k",
          accept_deadline_ms: 90_000,
          cancel_requested_at_ms: 9_500,
        },
      ],
    ]);
    const answer = await pending();
    expect(answer.body).toEqual({
      data: [],
      cancellations: [{ run_id: "r1", call_id: "c1", requested_at: iso(9_500) }],
      next_cursor: null,
    });
  });

  it("validates the query: wait_ms from 0 to 30 000, limit from 1 to 200, connection_id required, nothing else", async () => {
    const cases: Array<[Record<string, string | number>, string, string]> = [
      [{ wait_ms: 30_001 }, "validation_failed", "/wait_ms"],
      [{ wait_ms: -1 }, "validation_failed", "/wait_ms"],
      [{ wait_ms: "soon" }, "validation_failed", "/wait_ms"],
      [{ limit: 0 }, "validation_failed", "/limit"],
      [{ limit: 201 }, "validation_failed", "/limit"],
      [{ colour: "red" }, "unknown_field", "/colour"],
    ];
    for (const [query, code, pointer] of cases) {
      const answer = await pending(query);
      expect(answer.status, JSON.stringify(query)).toBe(422);
      expect(answer.body.error).toMatchObject({ code, pointer, details: { in: "query" } });
    }
    const missing = await server.call("GET", executorPath("e1", "pending"), { key: server.key });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "validation_failed", pointer: "/connection_id" });
    expect((await pending({ wait_ms: 0 })).status).toBe(200);
  });
});
