// Model connections, as an attacker holding one tenant's narrowed key would try them (both dialects):
// an agent version cannot name an endpoint or an environment variable (422 unknown_field at its
// pointer), nor a connection outside its key's reach (the same 422 as for one that does not exist);
// a provider that echoes its request in a 401 gets only the connection's own key — none of the
// server's other secrets, not even those the SDKs would read from the environment — and its answer
// body never reaches a run's error or any API answer (it is logged at warn, the key blanked out); a
// redirect is never followed. Metric labels take the provider and connection ID, never tenant text.

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { admin, type ClockedServer, expectStatus } from "../calls/calls-harness.js";
import { type Answer, BOOTSTRAP_SECRET } from "../http/http-harness.js";
import { READ_TOOL } from "../runs/run-fixtures.js";
import { describeEachDialect } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import { KEY_ENV, KEY_VALUE, readJson, runEnded, startModelServer } from "./model-harness.js";

/** Values in the server's environment that no provider and no API answer may ever see. */
const SDK_ENV = {
  OPENAI_API_KEY: "sk-env-openai-1b2c3d4e",
  OPENAI_ADMIN_KEY: "sk-env-openai-admin-5f6a7b8c",
  OPENAI_ORG_ID: "org-env-9d0e1f2a",
  OPENAI_CUSTOM_HEADERS: "x-leak-openai: custom-openai-3b4c5d6e",
  ANTHROPIC_API_KEY: "sk-env-anthropic-7f8a9b0c",
  ANTHROPIC_AUTH_TOKEN: "env-anthropic-token-1d2e3f4a",
  ANTHROPIC_CUSTOM_HEADERS: "x-leak-anthropic: custom-anthropic-5b6c7d8e",
};
const SECRETS = [
  BOOTSTRAP_SECRET,
  "sk-env-openai-1b2c3d4e",
  "sk-env-openai-admin-5f6a7b8c",
  "org-env-9d0e1f2a",
  "custom-openai-3b4c5d6e",
  "sk-env-anthropic-7f8a9b0c",
  "env-anthropic-token-1d2e3f4a",
  "custom-anthropic-5b6c7d8e",
];
const saved = new Map<string, string | undefined>();
beforeAll(() => {
  // The SDKs read these from process.env themselves, whatever the server is given.
  for (const [name, value] of Object.entries(SDK_ENV)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A listener that records every request and answers as `answer` says. */
interface Listener {
  readonly url: string;
  readonly requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

const listeners = new Set<Listener>();
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

async function startListener(
  answer: (headers: IncomingHttpHeaders) => { status: number; headers?: Record<string, string>; body: string },
): Promise<Listener> {
  const requests: Listener["requests"] = [];
  const server: Server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on("end", () => {
      requests.push({ method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers });
      const reply = answer(incoming.headers);
      response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("not on TCP");
  const listener: Listener = {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: async () => {
      listeners.delete(listener);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  listeners.add(listener);
  return listener;
}

/** A 401 whose body echoes every header of the request (what a hostile or careless endpoint does). */
function echoing401(headers: IncomingHttpHeaders) {
  return {
    status: 401,
    body: JSON.stringify({
      error: {
        message: `ECHOED REQUEST ${JSON.stringify(headers)}`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    }),
  };
}

/** Asserts that `text` holds none of the secrets (and, for API answers, not the echo either). */
function expectNoSecret(text: string, what: string): void {
  for (const secret of SECRETS) expect(text, `${what} holds ${secret}`).not.toContain(secret);
}

describeEachDialect("model connections", (dialect) => {
  let echo: Listener;
  let other: Listener;
  let target: Listener;
  let redirector: Listener;
  let server: ClockedServer;
  let agentId: string;
  let bindingId: string;
  let toolsetId: string;
  let tenantKey: string;

  beforeAll(async () => {
    echo = await startListener(echoing401);
    other = await startListener(echoing401);
    target = await startListener(() => ({ status: 200, body: "{}" }));
    redirector = await startListener(() => ({
      status: 307,
      headers: { location: `${target.url}/v1/chat/completions` },
      body: "moved",
    }));
    server = await startModelServer(dialect, {
      modelConnections: {
        "tenant-openai": { provider: "openai", base_url: `${echo.url}/v1`, api_key_env: KEY_ENV },
        "tenant-claude": { provider: "anthropic", base_url: echo.url, api_key_env: KEY_ENV },
        "tenant-keyless": { provider: "openai", base_url: `${echo.url}/v1` },
        "operator-only": { provider: "openai", base_url: `${other.url}/v1`, api_key_env: KEY_ENV },
        hop: { provider: "openai", base_url: `${redirector.url}/v1`, api_key_env: KEY_ENV },
      },
    });
    bindingId = `conn-binding-${dialect}`;
    expectStatus(
      await server.call("POST", "/v1/executor-bindings", { ...admin, body: { binding_id: bindingId, name: "b" } }),
      201,
    );
    const toolset = expectStatus(
      await server.call("POST", "/v1/toolsets", {
        ...admin,
        body: { name: "t", tools: [{ ...READ_TOOL, binding_id: bindingId }] },
      }),
      201,
    );
    toolsetId = toolset.toolset_id;
    agentId = expectStatus(
      await server.call("POST", "/v1/agents", { ...admin, body: { name: "tenant" } }),
      201,
    ).agent_id;
    const key = expectStatus(
      await server.call("POST", "/v1/keys", {
        ...admin,
        body: {
          name: "tenant",
          scopes: ["configuration:read", "configuration:write", "runtime:read", "runtime:write"],
          agents: [agentId],
          bindings: [bindingId],
          connections: ["tenant-openai", "tenant-claude", "tenant-keyless", "hop"],
        },
      }),
      201,
    );
    expect(key.connections).toEqual(["tenant-openai", "tenant-claude", "tenant-keyless", "hop"]);
    tenantKey = key.key;
  }, 60_000);

  const publish = (model: Record<string, unknown>): Promise<Answer> =>
    server.call("POST", `/v1/agents/${agentId}/versions`, {
      key: tenantKey,
      body: { toolset_id: toolsetId, toolset_version: 1, model },
    });

  const versionCount = async (): Promise<number> =>
    (await readJson(server, `/v1/agents/${agentId}/versions?limit=200`)).data.length;

  /** Publishes `model` with the tenant key, starts a run and answers it once it ended. */
  async function tenantRun(model: Record<string, unknown>) {
    const version = expectStatus(await publish(model), 201);
    const session = expectStatus(
      await server.call("POST", "/v1/sessions", {
        key: tenantKey,
        body: { agent_version: version.agent_version, subject: "victim" },
      }),
      201,
    );
    const run = expectStatus(
      await server.call("POST", `/v1/sessions/${session.session_id}/runs`, { key: tenantKey, body: { input: "hi" } }),
      201,
    );
    return { version, run: await runEnded(server, run.run_id) };
  }

  it("refuses an endpoint or a key variable in an agent version, at its pointer; nothing is stored", async () => {
    const before = await versionCount();
    const attempts: Array<[string, string]> = [
      ["base_url", `${echo.url}/v1`],
      ["api_key_env", "TOOLHOST_BOOTSTRAP_KEY"],
    ];
    for (const [member, value] of attempts) {
      for (const provider of ["openai", "anthropic"]) {
        const answer = await publish({ provider, connection: "tenant-openai", model: "x", [member]: value });
        expect(answer.status, answer.text).toBe(422);
        expect(answer.body.error).toMatchObject({ code: "unknown_field", pointer: `/model/${member}` });
      }
    }
    // The attack of the issue, verbatim: no connection, an endpoint and the bootstrap key's variable.
    const verbatim = await publish({
      provider: "openai",
      base_url: `${echo.url}/v1`,
      model: "x",
      api_key_env: "TOOLHOST_BOOTSTRAP_KEY",
    });
    expect(verbatim.body.error).toMatchObject({ code: "unknown_field", pointer: "/model/base_url" });
    expect(await versionCount()).toBe(before);
    expect(echo.requests.length).toBe(0);
  });

  it("answers a connection outside the key's reach exactly like one that does not exist", async () => {
    const before = await versionCount();
    const outside = await publish({ provider: "openai", connection: "operator-only", model: "x" });
    const missing = await publish({ provider: "openai", connection: "no-such", model: "x" });
    for (const answer of [outside, missing]) {
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body.error).toMatchObject({ code: "unknown_reference", pointer: "/model/connection" });
    }
    const shape = (answer: Answer, id: string) =>
      JSON.stringify(answer.body.error)
        .replaceAll(id, "<id>")
        .replace(/"request_id":"[^"]*"/, "");
    expect(shape(outside, "operator-only")).toBe(shape(missing, "no-such"));
    // Reach first, provider second: the answer never tells an unreachable connection's provider.
    const wrongProvider = await publish({ provider: "anthropic", connection: "operator-only", model: "x" });
    expect(wrongProvider.body.error).toMatchObject({ code: "unknown_reference", pointer: "/model/connection" });
    const mismatch = await publish({ provider: "anthropic", connection: "tenant-openai", model: "x" });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error).toMatchObject({ code: "validation_failed", pointer: "/model/provider" });
    expect(await versionCount()).toBe(before);
    // The bootstrap key reaches every connection.
    const operator = await server.call("POST", `/v1/agents/${agentId}/versions`, {
      key: BOOTSTRAP_SECRET,
      body: {
        toolset_id: toolsetId,
        toolset_version: 1,
        model: { provider: "openai", connection: "operator-only", model: "x" },
      },
    });
    expect(operator.status, operator.text).toBe(201);
    expect(other.requests.length).toBe(0);
  });

  it("sends only the connection's key to a 401 that echoes its request; no answer shows any secret", async () => {
    const sentBefore = echo.requests.length;
    const openai = await tenantRun({ provider: "openai", connection: "tenant-openai", model: "gpt-x" });
    const claude = await tenantRun({ provider: "anthropic", connection: "tenant-claude", model: "claude-x" });
    const keyless = await tenantRun({ provider: "openai", connection: "tenant-keyless", model: "local" });
    for (const { run } of [openai, claude, keyless]) {
      expect(run.status).toBe("failed");
      expect(run.error.code).toBe("model_error");
      // The status and the provider's error type (and code, where the SDK reads one), never the body it sent.
      expect(run.error.message).toMatch(/answered 401 \(type invalid_request_error(, code invalid_api_key)?\)$/);
      expect(run.error.message).not.toContain("ECHOED");
    }
    expect(openai.run.error.message).toMatch(/, code invalid_api_key\)$/);
    expect(openai.run.error.message).toContain('model connection "tenant-openai"');
    const sent = echo.requests.slice(sentBefore);
    expect(sent.map((r) => [r.method, r.url])).toEqual([
      ["POST", "/v1/chat/completions"],
      ["POST", "/v1/messages"],
      ["POST", "/v1/chat/completions"],
    ]);
    for (const request of sent) {
      expectNoSecret(JSON.stringify(request.headers), "a request's headers");
      expect(Object.keys(request.headers).filter((name) => name.startsWith("x-leak"))).toEqual([]);
      expect(request.headers["openai-organization"]).toBeUndefined();
    }
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${KEY_VALUE}`);
    const claudeKey = sent[1]?.headers.authorization ?? sent[1]?.headers["x-api-key"];
    expect([`Bearer ${KEY_VALUE}`, KEY_VALUE]).toContain(claudeKey);
    // A connection without a key sends no credential at all.
    expect(sent[2]?.headers.authorization).toBeUndefined();
    expect(sent[2]?.headers["x-api-key"]).toBeUndefined();

    for (const { run, version } of [openai, claude, keyless]) {
      for (const path of [
        `/v1/runs/${run.run_id}`,
        `/v1/runs/${run.run_id}/history`,
        `/v1/runs/${run.run_id}/model-requests`,
        `/v1/agents/${agentId}/versions/${version.agent_version}`,
      ]) {
        const answer = await server.call("GET", path, { key: tenantKey });
        expect(answer.status, path).toBe(200);
        expectNoSecret(answer.text, path);
        expect(answer.text, path).not.toContain(KEY_VALUE);
        expect(answer.text, path).not.toContain("ECHOED");
      }
    }
    // The operator sees the provider's body in the log, at warn, with the connection's key blanked out.
    const logged = server.logs.text();
    expect(logged).toContain("ECHOED REQUEST");
    expect(logged).not.toContain(KEY_VALUE);
    expectNoSecret(logged, "the log");
  }, 60_000);

  it("never follows a redirect", async () => {
    const { run } = await tenantRun({ provider: "openai", connection: "hop", model: "x" });
    expect(run.status).toBe("failed");
    expect(run.error.code).toBe("model_error");
    expect(run.error.message).toMatch(/answered 307; redirects are never followed$/);
    expect(redirector.requests.length).toBe(1);
    expect(target.requests.length).toBe(0);
  }, 60_000);

  it("labels model metrics by provider and connection ID, never by model name or tenant IDs", async () => {
    const fake = await startFakeModelServer();
    const metered = await startModelServer(dialect, {
      metricsPublic: true,
      modelConnections: { metered: { provider: "openai", base_url: `${fake.url}/v1` } },
    });
    const binding = expectStatus(
      await metered.call("POST", "/v1/executor-bindings", {
        ...admin,
        body: { binding_id: "metered-binding-7q", name: "b" },
      }),
      201,
    );
    const toolset = expectStatus(
      await metered.call("POST", "/v1/toolsets", {
        ...admin,
        body: { name: "t", tools: [{ ...READ_TOOL, binding_id: binding.binding_id }] },
      }),
      201,
    );
    const agent = expectStatus(await metered.call("POST", "/v1/agents", { ...admin, body: { name: "a" } }), 201);
    const names = Array.from({ length: 3 }, (_, i) => `tenant-chosen-${i}-${"q".repeat(180)}`);
    const runIds: string[] = [];
    for (const name of names) {
      const version = expectStatus(
        await metered.call("POST", `/v1/agents/${agent.agent_id}/versions`, {
          ...admin,
          body: {
            toolset_id: toolset.toolset_id,
            toolset_version: 1,
            model: { provider: "openai", connection: "metered", model: name },
          },
        }),
        201,
      );
      const session = expectStatus(
        await metered.call("POST", "/v1/sessions", {
          ...admin,
          body: { agent_version: version.agent_version, subject: "s" },
        }),
        201,
      );
      const run = expectStatus(
        await metered.call("POST", `/v1/sessions/${session.session_id}/runs`, { ...admin, body: { input: "hi" } }),
        201,
      );
      runIds.push(run.run_id);
      expect((await runEnded(metered, run.run_id)).status).toBe("completed");
    }
    const text = (await metered.call("GET", "/metrics")).text;
    const series = text.split("\n").filter((line) => line.startsWith("toolhost_model_input_tokens_total{"));
    expect(series.map((line) => line.split(" ")[0]).sort()).toEqual([
      'toolhost_model_input_tokens_total{provider="openai",connection="metered",kind="actual"}',
      'toolhost_model_input_tokens_total{provider="openai",connection="metered",kind="estimated"}',
    ]);
    for (const tenantText of [
      ...names.map((name) => name.slice(0, 20)),
      agent.agent_id,
      ...runIds,
      "metered-binding-7q",
    ]) {
      expect(text).not.toContain(tenantText);
    }
  }, 60_000);
});
