// GET /v1/runs: every run in the credential's agent scope, newest first, paged; a key without
// runtime:read is refused, and runs of agents outside the key's agent scope are left out; `status`
// and `agent_id` narrow the list (each alone and both), and a bad filter is a 422 naming it.
import { beforeAll, expect, it } from "vitest";
import { expectError } from "../config/config-fixtures.js";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { admin, publishScript, read, startRun } from "./run-fixtures.js";

const FINAL = [{ message: "done" }];

describeEachDialect("GET /v1/runs", (dialect) => {
  let server: TestServer;
  let mine: string[];
  let theirs: string[];
  let scopedKey: string;
  let agents: { mine: string; theirs: string };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const a = await publishScript(server, FINAL);
    const b = await publishScript(server, FINAL);
    mine = [];
    theirs = [];
    // Interleaved across two sessions of two agents, so the order is the creation order, not the session's.
    for (let i = 0; i < 3; i++) {
      mine.push((await startRun(server, a.sessionId, { input: `a${i}` })).body.run_id);
      theirs.push((await startRun(server, b.sessionId, { input: `b${i}` })).body.run_id);
    }
    scopedKey = (await createKey(server, { name: "scoped", scopes: ["runtime:read"], agents: [a.agentId] })).key;
    agents = { mine: a.agentId, theirs: b.agentId };
  });

  it("lists every run newest first, across sessions", async () => {
    const page = await read(server, "/v1/runs");
    const expected = [mine[0], theirs[0], mine[1], theirs[1], mine[2], theirs[2]].reverse();
    expect(page.body.data.map((run: { run_id: string }) => run.run_id)).toEqual(expected);
    expect(page.body.next_cursor).toBeNull();
    expect(page.body.data[0]).toMatchObject({ status: "completed", output: "done" });
  });

  it("pages with limit and cursor without repeating or losing a run", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "?limit=4" : `?limit=4&cursor=${encodeURIComponent(cursor)}`;
      const page = await read(server, `/v1/runs${query}`);
      expect(page.body.data.length).toBeLessThanOrEqual(4);
      seen.push(...page.body.data.map((run: { run_id: string }) => run.run_id));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual([mine[0], theirs[0], mine[1], theirs[1], mine[2], theirs[2]].reverse());
  });

  it("leaves out runs of agents outside the key's agent scope", async () => {
    const page = await server.call("GET", "/v1/runs", { key: scopedKey });
    expect(page.status, page.text).toBe(200);
    expect(page.body.data.map((run: { run_id: string }) => run.run_id)).toEqual([...mine].reverse());
  });

  it("narrows by status and agent_id, each alone and both, and pages the narrowed list", async () => {
    const asking = await publishScript(server, [{ tool_calls: [{ name: "tasks.read", arguments: {} }] }]);
    const waiting = (await startRun(server, asking.sessionId)).body.run_id;
    const ids = async (query: string) =>
      (await read(server, `/v1/runs?${query}`)).body.data.map((run: { run_id: string }) => run.run_id);
    expect(await ids("status=waiting_for_tools")).toEqual([waiting]);
    expect(await ids("status=completed")).toEqual(
      [mine[0], theirs[0], mine[1], theirs[1], mine[2], theirs[2]].reverse(),
    );
    expect(await ids(`agent_id=${agents.theirs}`)).toEqual([...theirs].reverse());
    expect(await ids(`agent_id=${agents.mine}&status=completed`)).toEqual([...mine].reverse());
    expect(await ids(`agent_id=${agents.mine}&status=failed`)).toEqual([]);
    expect(await ids("agent_id=no-such-agent")).toEqual([]);
    const first = await read(server, `/v1/runs?agent_id=${agents.theirs}&limit=2`);
    expect(first.body.data.map((run: { run_id: string }) => run.run_id)).toEqual([theirs[2], theirs[1]]);
    const cursor = encodeURIComponent(first.body.next_cursor);
    expect(await ids(`agent_id=${agents.theirs}&limit=2&cursor=${cursor}`)).toEqual([theirs[0]]);
    // The key's agent scope still applies under a filter.
    const outside = await server.call("GET", `/v1/runs?agent_id=${agents.theirs}`, { key: scopedKey });
    expect(outside.body.data).toEqual([]);
  });

  it("refuses an unknown status and a malformed agent_id with a 422 naming the parameter", async () => {
    expectError(await server.call("GET", "/v1/runs?status=sleeping", admin), 422, "validation_failed", "/status");
    expectError(await server.call("GET", "/v1/runs?agent_id=%20x", admin), 422, "validation_failed", "/agent_id");
  });

  it("refuses a key without runtime:read, a cursor of another list and no key", async () => {
    const config = await createKey(server, { name: "config", scopes: ["configuration:read"] });
    expectError(await server.call("GET", "/v1/runs", { key: config.key }), 403, "forbidden");
    expectError(await server.call("GET", "/v1/runs"), 401, "unauthorized");
    const sessionRuns = await read(
      server,
      `/v1/sessions/${(await read(server, "/v1/sessions")).body.data[0].session_id}/runs?limit=1`,
    );
    const foreign = sessionRuns.body.next_cursor as string;
    expectError(
      await server.call("GET", `/v1/runs?cursor=${encodeURIComponent(foreign)}`, admin),
      422,
      "validation_failed",
      "/cursor",
    );
  });
});
