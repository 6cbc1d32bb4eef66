// An executor's life against real runs (runs created through POST /v1/sessions/{id}/runs with the
// scripted model): the long-poll wakes when the run emits its calls; claim, accept and complete one;
// detach releases the other to a second executor; a lapsed lease releases it again; the journal report
// and the binding diagnostics agree with what happened.
import { expect, it } from "vitest";
import {
  admin,
  buildWorld,
  claimed,
  connect,
  eventually,
  expectStatus,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
} from "../calls/calls-harness.js";
import { describeEachDialect } from "../support/test-databases.js";
import { executorPath } from "./executor-harness.js";

describeEachDialect("executor flow over real runs", (dialect) => {
  it("pending wakes for a new run's calls; detach and lease lapse release unconfirmed claims; report and diagnostics agree", async () => {
    const server = await startClockedServer(dialect, { leaseTtlMs: 5_000 });
    const world = await buildWorld(server, [
      {
        tool_calls: [
          { name: "tasks.write", arguments: { title: "a" } },
          { name: "tasks.write", arguments: { title: "b" } },
        ],
      },
      { message: "done" },
    ]);
    const e1 = await connect(server, world, "e1");
    const pending = (executor: { executor_id: string; connection_id: string }, waitMs = 0) =>
      server.call(
        "GET",
        executorPath(executor.executor_id, "pending", { connection_id: executor.connection_id, wait_ms: waitMs }),
        {
          key: world.executorKey,
        },
      );

    // The long-poll's first query finds nothing; the run's calls wake it.
    const store = server.server.storage.pendingCalls;
    const poll = store.poll.bind(store);
    let firstQueryDone: () => void = () => undefined;
    const firstQuery = new Promise<void>((resolve) => {
      firstQueryDone = resolve;
    });
    store.poll = async (...args) => {
      const answer = await poll(...args);
      firstQueryDone();
      return answer;
    };
    const polling = pending(e1, 25_000);
    await firstQuery;
    store.poll = poll;
    const runId = await startRun(server, world);
    const woken = expectStatus(await polling, 200);
    const [first, second] = woken.data;
    expect(woken.data).toHaveLength(2);
    expect(first).toEqual({
      run_id: runId,
      call_id: expect.any(String),
      tool_name: "tasks.write",
      binding_id: world.bindingId,
      created_at: expect.any(String),
    });

    // e1 completes the first call and holds the second unconfirmed.
    const held1 = await claimed(server, world, runId, first.call_id, e1);
    expectStatus(await receipt(server, world, held1, { receipt_id: "r1-accepted", kind: "accepted" }), 200);
    expectStatus(
      await receipt(server, world, held1, { receipt_id: "r1-done", kind: "completed", result: { ok: true } }),
      200,
    );
    await claimed(server, world, runId, second.call_id, e1);
    expect(expectStatus(await pending(e1), 200).data).toEqual([]);

    // Detach: the unconfirmed claim returns to pending; the completed call is untouched.
    const detached = expectStatus(
      await server.call("POST", executorPath("e1", "disconnect"), {
        key: world.executorKey,
        body: { connection_id: e1.connection_id },
      }),
      200,
    );
    expect(detached).toEqual({ executor_id: "e1", online: false, released: [second.call_id] });
    const e2 = await connect(server, world, "e2");
    expect(expectStatus(await pending(e2), 200).data.map((c: { call_id: string }) => c.call_id)).toEqual([
      second.call_id,
    ]);

    // e2 claims it and goes silent: once its lease lapses, the sweep returns the call to pending.
    await claimed(server, world, runId, second.call_id, e2);
    server.clock.advance(5_001);
    await eventually(
      () => listCalls(server, runId),
      (calls) => calls.find((c: { call_id: string }) => c.call_id === second.call_id)?.status === "pending",
      "the lapsed executor's claim is released",
    );

    // e1 comes back and reports its journal.
    const back = await connect(server, world, "e1");
    const report = expectStatus(
      await server.call("POST", executorPath("e1", "calls/report"), {
        key: world.executorKey,
        body: {
          connection_id: back.connection_id,
          calls: [
            {
              call_id: first.call_id,
              claim_id: held1.claimId,
              state: "pending_delivery",
              receipt_ids: ["r1-accepted", "r1-done"],
            },
            { call_id: second.call_id, state: "pending_delivery" },
          ],
        },
      }),
      200,
    );
    expect(report.calls.map((c: { action: string; reason: string }) => [c.action, c.reason])).toEqual([
      ["nothing", "settled"],
      ["nothing", "not_held"],
    ]);
    expect(report.calls[0]).toMatchObject({ status: "completed", receipt_ids: ["r1-accepted", "r1-done"] });

    const diagnostics = expectStatus(
      await server.call("GET", `/v1/agents/${world.agentId}/executor-bindings/${world.bindingId}/diagnostics`, admin),
      200,
    );
    expect(diagnostics.executors.online.map((e: { executor_id: string }) => e.executor_id)).toEqual(["e1"]);
    expect(diagnostics.calls).toMatchObject({ pending: 1, claimed: 0, accepted: 0, reconciliation_required: 0 });
    expect(diagnostics.last_verified_execution).toMatchObject({ call_id: first.call_id, executor_id: "e1" });
  });
});
