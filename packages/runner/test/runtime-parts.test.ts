// The runtime's small parts: per-tool slots, the business-cancel book, event isolation, and how the
// connection manager tells a lapsed lease (reconnect) from another process taking the executor ID
// (fenced) and from its own older connection (stale).
import { describe, expect, it } from "vitest";
import { CancelledError, type RunnerError } from "../src/errors.js";
import { RunnerEvents } from "../src/events.js";
import { ANSWER_READERS, answerOutcome } from "../src/http/answer-reader.js";
import type { HttpOutcome } from "../src/http/http-outcome.js";
import type { ServerClient } from "../src/http/server-client.js";
import { silentLogger } from "../src/logger.js";
import { compileRunnerOptions } from "../src/options.js";
import { CancellationBook } from "../src/runtime/cancellations.js";
import { ConnectionManager } from "../src/runtime/connection.js";
import { ToolSlots } from "../src/runtime/tool-slots.js";
import { TroubleWatch } from "../src/runtime/trouble-watch.js";
import { StatsCounters } from "../src/stats.js";

describe("ToolSlots", () => {
  it("bounds each tool separately and wakes waiters when a slot is given back", async () => {
    const slots = new ToolSlots();
    const a1 = slots.tryAcquire("a", 2);
    const a2 = slots.tryAcquire("a", 2);
    expect(slots.tryAcquire("a", 2)).toBeUndefined();
    expect(slots.tryAcquire("b", 1)).toBeDefined();
    expect(slots.inUse()).toEqual({ a: 2, b: 1 });
    const waiting = slots.acquire("a", 2, new AbortController().signal);
    a1?.release();
    a1?.release(); // idempotent: frees one slot only
    const a3 = await waiting;
    expect(a3).toBeDefined();
    expect(slots.inUse()).toEqual({ a: 2, b: 1 });
    a2?.release();
    a3?.release();
    const stop = new AbortController();
    slots.tryAcquire("c", 1);
    const never = slots.acquire("c", 1, stop.signal);
    stop.abort();
    expect(await never).toBeUndefined();
  });
});

describe("CancellationBook", () => {
  it("aborts a running handler once, with a CancelledError reason, and remembers early requests", () => {
    const book = new CancellationBook();
    const signal = book.attach("c1");
    const request = { run_id: "r", call_id: "c1", requested_at: "2026-01-01T00:00:00.000Z" };
    expect(book.receive([request]).map((n) => n.callId)).toEqual(["c1"]);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(CancelledError);
    expect(book.receive([request])).toEqual([]);
    book.receive([{ ...request, call_id: "c2" }]);
    expect(book.isRequested("c2")).toBe(true);
    expect(book.attach("c2").aborted).toBe(true);
    book.forget("c2");
    expect(book.isRequested("c2")).toBe(false);
  });
});

describe("RunnerEvents", () => {
  it("calls listeners synchronously in order and isolates a throwing one", () => {
    const events = new RunnerEvents(silentLogger);
    const seen: string[] = [];
    events.on("abandoned", () => {
      throw new Error("a broken metrics listener");
    });
    events.on("abandoned", ({ callId }) => seen.push(callId));
    events.emit("abandoned", { callId: "c1", reason: "not_confirmed" });
    expect(seen).toEqual(["c1"]);
  });
});

describe("ConnectionManager", () => {
  function managerWith(outcomes: HttpOutcome[], refusalGraceMs = 60_000) {
    const options = compileRunnerOptions({
      baseUrl: "http://127.0.0.1:1",
      apiKey: "k",
      executorId: "e1",
      bindingIds: ["b1"],
      journalPath: "unused",
      logger: "silent",
      retryBackoffMinMs: 1,
      retryBackoffMaxMs: 2,
      refusalGraceMs,
    });
    let connects = 0;
    const declared: Array<readonly string[] | null> = [];
    const client = {
      connect: async (_executorId: string, _bindingIds: readonly string[], toolNames: readonly string[] | null) => {
        declared.push(toolNames);
        const outcome = outcomes[connects++];
        if (outcome === undefined) throw new Error("no more connect outcomes");
        return outcome;
      },
    } as unknown as ServerClient;
    const events = new RunnerEvents(silentLogger);
    const fenced: string[] = [];
    events.on("fenced", ({ connectionId }) => fenced.push(connectionId));
    const failures: RunnerError[] = [];
    const fail = (error: RunnerError) => failures.push(error);
    const stats = new StatsCounters();
    const manager = new ConnectionManager({
      options,
      client,
      logger: silentLogger,
      stats,
      events,
      watch: new TroubleWatch({ options, logger: silentLogger, stats, fail }),
      fail,
      toolNames: () => ["tasks.create"],
    });
    return { manager, fenced, failures, declared, stats, connects: () => connects };
  }
  const connection = (id: string, epoch: number): HttpOutcome =>
    answerOutcome(
      ANSWER_READERS.connect,
      200,
      JSON.stringify({
        executor_id: "e1",
        connection_id: id,
        epoch,
        heartbeat_interval_ms: 100,
        lease_ttl_ms: 300,
        binding_ids: ["b1"],
      }),
      "application/json",
    );
  const proxyPage = (): HttpOutcome =>
    answerOutcome(ANSWER_READERS.connect, 200, "<!DOCTYPE html><html><body>Bad gateway</body></html>", "text/html");
  const signal = new AbortController().signal;

  it("retries no answer, then reconnects after a lapsed lease and ignores refusals of older connections", async () => {
    const { manager, connects } = managerWith([
      { type: "unreachable", message: "ECONNREFUSED", aborted: false },
      connection("conn-1", 1),
      connection("conn-2", 2),
    ]);
    expect((await manager.ensure(signal))?.connectionId).toBe("conn-1");
    expect(await manager.handleRefusal("conn-1", "connection_offline", signal)).toBe("reconnected");
    expect(manager.current?.epoch).toBe(2);
    expect(await manager.handleRefusal("conn-1", "connection_superseded", signal)).toBe("stale");
    expect(await manager.handleRefusal("conn-2", "already_claimed", signal)).toBe("other");
    expect(connects()).toBe(3);
    expect(manager.fenced).toBe(false);
  });

  it("is fenced when its current connection is superseded by another process: the runner fails", async () => {
    const { manager, fenced, failures } = managerWith([connection("conn-1", 1)]);
    await manager.ensure(signal);
    expect(await manager.handleRefusal("conn-1", "connection_superseded", signal)).toBe("fenced");
    expect(fenced).toEqual(["conn-1"]);
    expect(failures.map((error) => error.code)).toEqual(["fenced"]);
    expect(await manager.ensure(signal)).toBeNull();
  });

  it("declares the registered tool names, and retries an answer it cannot read (a proxy's page)", async () => {
    const { manager, declared, stats, failures } = managerWith([proxyPage(), proxyPage(), connection("conn-1", 1)]);
    expect((await manager.ensure(signal))?.connectionId).toBe("conn-1");
    expect(declared).toEqual([["tasks.create"], ["tasks.create"], ["tasks.create"]]);
    expect(stats.snapshot().malformed_answers).toBe(2);
    expect(failures).toEqual([]);
  });

  it("fails the runner with connect_refused when a reconnect stays refused past refusalGraceMs", async () => {
    const refusal: HttpOutcome = {
      type: "refused",
      status: 401,
      code: "unauthorized",
      message: "",
      details: undefined,
    };
    const { manager, failures } = managerWith([refusal, refusal, refusal], 0);
    expect(await manager.ensure(signal)).toBeNull();
    expect(failures.map((error) => [error.code, error.details?.status])).toEqual([["connect_refused", 401]]);
  });

  it("throws connect_refused at start on a refusal no retry can change", async () => {
    const { manager } = managerWith([
      { type: "refused", status: 422, code: "unknown_reference", message: "binding b1", details: undefined },
    ]);
    await expect(manager.ensure(signal, true)).rejects.toMatchObject({ code: "connect_refused" });
  });
});
