// /v1/sessions: a session pins one agent version (found in the credential's agent scope, else 404 at
// /agent_version) and a subject; reading is scoped by the session's agent; later agent versions never
// change a session's pin.
import { beforeAll, expect, it } from "vitest";
import { createKey, startTestServer, type TestServer } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  createAgent,
  createAgentVersion,
  createBinding,
  createToolset,
  expectError,
  ISO_TIME,
  readAll,
  snapshot,
  tool,
} from "./config-fixtures.js";

describeEachDialect("sessions", (dialect) => {
  let server: TestServer;
  let toolsetId: string;
  let agentId: string;
  let agentVersion: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    await createBinding(server, "tasks");
    toolsetId = await createToolset(server, [tool("tasks.read", "tasks")]);
    agentId = await createAgent(server);
    agentVersion = await createAgentVersion(server, agentId, toolsetId);
  });

  const open = (body: unknown, key = admin.key) => server.call("POST", "/v1/sessions", { key, body });

  it("creates a session: 201 pinning the agent version, with its agent", async () => {
    const answer = await open({ agent_version: agentVersion, subject: "user:42" });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual([
      "agent_id",
      "agent_version",
      "created_at",
      "session_id",
      "subject",
    ]);
    expect(answer.body).toMatchObject({ agent_version: agentVersion, agent_id: agentId, subject: "user:42" });
    expect(answer.body.session_id).toMatch(/^ses_[0-9a-z]{26}$/);
    expect(answer.body.created_at).toMatch(ISO_TIME);
    const read = await server.call("GET", `/v1/sessions/${answer.body.session_id}`, admin);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);
  });

  it("keeps its pin when the agent publishes a new version", async () => {
    const session = (await open({ agent_version: agentVersion, subject: "pinned" })).body;
    const newer = await createAgentVersion(server, agentId, toolsetId);
    expect(newer).not.toBe(agentVersion);
    expect((await server.call("GET", `/v1/sessions/${session.session_id}`, admin)).body.agent_version).toBe(
      agentVersion,
    );
    expect((await open({ agent_version: newer, subject: "pinned" })).body.agent_version).toBe(newer);
  });

  it("refuses an unknown agent version with 404 at /agent_version and bad bodies with 422", async () => {
    const before = await snapshot(server);
    expectError(await open({ agent_version: "agv_missing", subject: "s" }), 404, "not_found", "/agent_version");
    const cases: Array<[unknown, string, string]> = [
      [{ subject: "s" }, "validation_failed", "/agent_version"],
      [{ agent_version: agentVersion }, "validation_failed", "/subject"],
      [{ agent_version: agentVersion, subject: "" }, "validation_failed", "/subject"],
      [{ agent_version: agentVersion, subject: "x".repeat(257) }, "validation_failed", "/subject"],
      [{ agent_version: agentVersion, subject: 42 }, "validation_failed", "/subject"],
      [{ agent_version: agentVersion, subject: "s", agent_id: agentId }, "unknown_field", "/agent_id"],
    ];
    for (const [body, code, pointer] of cases) expectError(await open(body), 422, code, pointer);
    expect(await snapshot(server)).toBe(before);
    expectError(await server.call("GET", "/v1/sessions/ses_missing", admin), 404, "not_found");
  });

  it("lists sessions in creation order across pages", async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push((await open({ agent_version: agentVersion, subject: `p${i}` })).body.session_id);
    const all = await readAll(server, "/v1/sessions");
    const paged = await readAll(server, "/v1/sessions", admin.key, 2);
    expect(paged.items).toEqual(all.items);
    expect(paged.pages).toBe(Math.ceil(all.items.length / 2));
    expect(all.items.slice(-3).map((s) => s.session_id)).toEqual(made);
  });

  it("scopes sessions by their agent: another agent's version is 404 and its sessions are invisible", async () => {
    const other = await createAgent(server);
    const otherVersion = await createAgentVersion(server, other, toolsetId);
    const otherSession = (await open({ agent_version: otherVersion, subject: "theirs" })).body.session_id;
    const { key } = await createKey(server, {
      name: "runtime",
      scopes: ["runtime:read", "runtime:write"],
      agents: [agentId],
    });
    const before = await snapshot(server);
    expectError(await open({ agent_version: otherVersion, subject: "s" }, key), 404, "not_found", "/agent_version");
    expect(await snapshot(server)).toBe(before);
    expectError(await server.call("GET", `/v1/sessions/${otherSession}`, { key }), 404, "not_found");
    const visible = (await readAll(server, "/v1/sessions", key)).items;
    expect(visible.length).toBeGreaterThan(0);
    expect(visible.every((s) => s.agent_id === agentId)).toBe(true);
    expect((await open({ agent_version: agentVersion, subject: "mine" }, key)).status).toBe(201);
  });
});
