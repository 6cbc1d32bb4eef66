// POST /v1/executors/connect: the answer, reconnect epochs and fencing of the older connection on every
// executor route, scopes (executors:connect only), binding checks and executor visibility.
import { beforeEach, expect, it } from "vitest";
import { BOOTSTRAP_SECRET } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import {
  connect,
  createKey,
  type ExecutorServer,
  executorPath,
  startExecutorServer,
  TEST_TIMING,
} from "./executor-harness.js";

describeEachDialect("executor connect and fencing", (dialect) => {
  let server: ExecutorServer;
  beforeEach(async () => {
    server = await startExecutorServer(dialect);
  });

  it("answers the connection, its epoch, the heartbeat interval, the lease and the bindings", async () => {
    const answer = await server.call("POST", "/v1/executors/connect", {
      key: server.key,
      body: { executor_id: "worker-1.eu:a_b", binding_ids: ["b2", "b1"] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      executor_id: "worker-1.eu:a_b",
      connection_id: expect.stringMatching(/^conn_[0-9a-z]{26}$/),
      epoch: 1,
      heartbeat_interval_ms: TEST_TIMING.heartbeatIntervalMs,
      lease_ttl_ms: TEST_TIMING.leaseTtlMs,
      binding_ids: ["b2", "b1"],
      batch: { claim_max: 32, receipts_max: 100 },
    });
  });

  it("a reconnect gets a new connection and a higher epoch, and fences the older one everywhere", async () => {
    const first = await connect(server, "e1");
    const second = await connect(server, "e1", ["b1", "b2"]);
    expect(second.epoch).toBe(2);
    expect(second.connection_id).not.toBe(first.connection_id);
    const third = await connect(server, "e1");
    expect(third.epoch).toBe(3);

    const old = first.connection_id;
    const fenced = [
      await server.call("POST", executorPath("e1", "heartbeat"), { key: server.key, body: { connection_id: old } }),
      await server.call("GET", executorPath("e1", "pending", { connection_id: old }), { key: server.key }),
      await server.call("POST", executorPath("e1", "calls/report"), {
        key: server.key,
        body: { connection_id: old, calls: [{ call_id: "c1", state: "pending_delivery" }] },
      }),
      await server.call("POST", executorPath("e1", "disconnect"), { key: server.key, body: { connection_id: old } }),
    ];
    for (const answer of fenced) {
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ code: "connection_superseded", details: { current_epoch: 3 } });
    }
    // The fenced disconnect changed nothing: the current connection still heartbeats.
    const ok = await server.call("POST", executorPath("e1", "heartbeat"), {
      key: server.key,
      body: { connection_id: third.connection_id },
    });
    expect(ok.status).toBe(200);
  });

  it("needs executors:connect: tools:execute or runtime scopes alone are refused, admin is admitted", async () => {
    for (const scopes of [["tools:execute"], ["runtime:read", "runtime:write", "configuration:write"]]) {
      const key = await createKey(server.url, { name: "other", scopes });
      const answer = await server.call("POST", "/v1/executors/connect", {
        key,
        body: { executor_id: "e1", binding_ids: ["b1"] },
      });
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe("forbidden");
      const pending = await server.call("GET", executorPath("e1", "pending", { connection_id: "conn_x" }), { key });
      expect(pending.status).toBe(403);
    }
    expect(
      (await server.call("POST", "/v1/executors/connect", { body: { executor_id: "e1", binding_ids: ["b1"] } })).status,
    ).toBe(401);
    const admin = await server.call("POST", "/v1/executors/connect", {
      key: BOOTSTRAP_SECRET,
      body: { executor_id: "e1", binding_ids: ["b1"] },
    });
    expect(admin.status).toBe(200);
  });

  it("executors:connect never admits a claim (that needs tools:execute)", async () => {
    const { connection_id } = await connect(server, "e1");
    const answer = await server.call("POST", "/v1/runs/r1/tool-calls/c1/claim", {
      key: server.key,
      body: { executor_id: "e1", connection_id },
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe("forbidden");
  });

  it("refuses a binding that does not exist or lies outside the key's binding scope, naming it", async () => {
    for (const binding of ["b3", "nope"]) {
      const answer = await server.call("POST", "/v1/executors/connect", {
        key: server.key,
        body: { executor_id: "e1", binding_ids: ["b1", binding] },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.error).toMatchObject({
        code: "unknown_reference",
        pointer: "/binding_ids/1",
        details: { binding_id: binding },
      });
    }
    expect(await server.server.storage.executors.get("e1")).toBeUndefined();
  });

  it("validates the body: executor ID pattern, at least one binding, no duplicates, no unknown fields", async () => {
    const bodies: Array<[unknown, string, string]> = [
      [{ executor_id: "-bad", binding_ids: ["b1"] }, "validation_failed", "/executor_id"],
      [{ executor_id: "a b", binding_ids: ["b1"] }, "validation_failed", "/executor_id"],
      [{ executor_id: "x".repeat(129), binding_ids: ["b1"] }, "validation_failed", "/executor_id"],
      [{ executor_id: "e1", binding_ids: [] }, "validation_failed", "/binding_ids"],
      [{ executor_id: "e1", binding_ids: ["b1", "b1"] }, "validation_failed", "/binding_ids"],
      [{ executor_id: "e1" }, "validation_failed", "/binding_ids"],
      [{ executor_id: "e1", binding_ids: ["b1"], colour: 1 }, "unknown_field", "/colour"],
    ];
    for (const [body, code, pointer] of bodies) {
      const answer = await server.call("POST", "/v1/executors/connect", { key: server.key, body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.error).toMatchObject({ code, pointer });
    }
  });

  it("an executor outside the key's binding scope is not found, and its ID cannot be taken over", async () => {
    const foreign = await connect(server, "e-foreign", ["b3"], BOOTSTRAP_SECRET);
    for (const [method, route] of [
      ["POST", "heartbeat"],
      ["POST", "disconnect"],
    ] as const) {
      const answer = await server.call(method, executorPath("e-foreign", route), {
        key: server.key,
        body: { connection_id: foreign.connection_id },
      });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("not_found");
    }
    const unknown = await server.call("POST", executorPath("nobody", "heartbeat"), {
      key: server.key,
      body: { connection_id: foreign.connection_id },
    });
    expect(unknown.status).toBe(404);
    const takeover = await server.call("POST", "/v1/executors/connect", {
      key: server.key,
      body: { executor_id: "e-foreign", binding_ids: ["b1"] },
    });
    expect(takeover.status).toBe(409);
    expect(takeover.body.error).toMatchObject({ code: "conflict", pointer: "/executor_id" });
    expect((await server.server.storage.executors.get("e-foreign"))?.connection_id).toBe(foreign.connection_id);
  });
});
