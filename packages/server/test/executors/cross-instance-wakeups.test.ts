// Two server instances on one PostgreSQL schema: an executor long-polling on B wakes when instance A
// creates a call and notifies (relayed through NOTIFY/LISTEN), and answers with that call.
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { WaitFor, Woken } from "../../src/wakeups/call-wakeups.js";
import { type CallWakeup, callWakeup } from "../../src/wakeups/wakeup.js";
import { callRecord } from "../support/call-fixtures.js";
import { describeDialect, TEST_POSTGRES_URL, testDatabaseUrl } from "../support/test-databases.js";
import { connect, type ExecutorServer, executorPath, ManualClock, startExecutorServer } from "./executor-harness.js";

/** A wait on one binding, every tool. */
const waitOn = (bindingId: string): WaitFor => ({ binding_ids: [bindingId], tool_names: null, executor_id: "e-any" });
/** The wake-up of a new call on one binding. */
const callOn = (bindingId: string, callId = "c1"): CallWakeup =>
  callWakeup({ call_id: callId, binding_id: bindingId, tool_name: "tool_0" });

describeDialect("postgres", "call wake-ups across instances", () => {
  let a: ExecutorServer;
  let b: ExecutorServer;
  let other: ExecutorServer;

  beforeAll(async () => {
    const database = await testDatabaseUrl("postgres");
    const clock = new ManualClock();
    a = await startExecutorServer("postgres", { database, clock });
    b = await startExecutorServer("postgres", { database, clock, seed: false });
    // A third instance on another schema of the same database must not be woken by A's notifications.
    other = await startExecutorServer("postgres", { clock });
  });
  afterAll(async () => {
    for (const server of [a, b, other]) await server?.close();
  });

  it("a long-poll on B answers with the call A created", async () => {
    const { connection_id } = await connect(a, "e1");
    // Count B's queries: the call is added only after B's first query found nothing.
    const store = b.server.storage.pendingCalls;
    const poll = store.poll.bind(store);
    let queries = 0;
    let queried: () => void = () => undefined;
    const firstQuery = new Promise<void>((resolve) => {
      queried = resolve;
    });
    store.poll = async (...args) => {
      const answer = await poll(...args);
      queries++;
      queried();
      return answer;
    };
    const polling = b.call("GET", executorPath("e1", "pending", { connection_id, wait_ms: 25_000 }), { key: a.key });
    await firstQuery;
    await a.server.storage.calls.insertMany([callRecord("r1", "c-from-a", { created_at_ms: 7_000 })]);
    a.server.wakeups.notify([callOn("b1", "c-from-a")]);
    const answer = await polling;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      {
        run_id: "r1",
        call_id: "c-from-a",
        tool_name: "tool_0",
        binding_id: "b1",
        created_at: new Date(7_000).toISOString(),
      },
    ]);
    expect(queries).toBe(2);
  });

  it("notifications of another schema do not wake B's waiters", async () => {
    let woken: Woken | undefined;
    const waiting = b.server.wakeups.wait(waitOn("b-other"), 1_500).then((value) => {
      woken = value;
    });
    other.server.wakeups.notify([callOn("b-other")]);
    await waiting;
    expect(woken).toBeUndefined();
    // The same binding notified on B's own schema (from A) does wake it.
    const again = b.server.wakeups.wait(waitOn("b-other"), 20_000);
    a.server.wakeups.notify([callOn("b-other")]);
    expect(await again).toEqual(callOn("b-other"));
  });

  it("the listener reconnects after losing its connection, wakes its waiters, and relays again", async () => {
    const listenerPid = (): number | undefined =>
      (b.server.wakeups as unknown as { listener?: { backendPid?: number } }).listener?.backendPid;
    const before = listenerPid();
    expect(before).toBeTypeOf("number");
    const waiting = b.server.wakeups.wait(waitOn("b-lost"), 20_000);
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend($1)", [before]);
    } finally {
      await admin.end();
    }
    // Notifications sent while it was away are lost, so the reconnected listener wakes every waiter.
    expect(await waiting).toBe("everyone");
    await vi.waitFor(() => expect(listenerPid()).toBeTypeOf("number"), { timeout: 15_000, interval: 50 });
    expect(listenerPid()).not.toBe(before);
    const again = b.server.wakeups.wait(waitOn("b-after"), 20_000);
    a.server.wakeups.notify([callOn("b-after")]);
    expect(await again).toEqual(callOn("b-after"));
  });
});
