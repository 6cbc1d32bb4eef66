// Progress receipts bounded (docs/protocol.md#progress-limits), black-box over HTTP on a real server of
// each dialect with small limits: a progress value over maxProgressBytes (compact JSON) is 413
// `progress_too_large`, one more than maxProgressPerCall per call 409 `progress_limit_exceeded`, nothing
// stored either way, on the per-call and the batched route alike; a replay of a stored progress
// receipt still answers `replayed: true`, and the final receipt keeps the general body limit.

import { beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../support/test-databases.js";
import {
  admin,
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  expectError,
  expectStatus,
  type Held,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "./calls-harness.js";

/** The limits of the server under test. */
const LIMITS = { maxProgressPerCall: 3, maxProgressBytes: 64 } as const;

/** A progress value of exactly `bytes` bytes as compact JSON (`{"note":"xx…"}`), spaced out when sent. */
function progressOf(bytes: number): { note: string } {
  return { note: "x".repeat(bytes - '{"note":""}'.length) };
}

describeEachDialect("progress limits", (dialect) => {
  let server: ClockedServer;
  let world: World;

  beforeAll(async () => {
    server = await startClockedServer(dialect, LIMITS);
    world = await buildWorld(server, [{ tool_calls: [{ name: "tasks.write", arguments: { title: "a" } }] }]);
  });

  /** A new run's call, claimed and accepted by a new executor. */
  async function acceptedCall(): Promise<Held> {
    const runId = await startRun(server, world);
    const [call] = await listCalls(server, runId);
    const executor = await connect(server, world, `exec-${runId}`);
    const held = await claimed(server, world, runId, call.call_id, executor);
    expectStatus(await receipt(server, world, held, { receipt_id: "acc", kind: "accepted" }), 200);
    return held;
  }

  async function storedKinds(held: Held): Promise<string[]> {
    const path = `/v1/runs/${held.runId}/tool-calls/${held.callId}/receipts`;
    return expectStatus(await server.call("GET", path, admin), 200).receipts.map((r: { kind: string }) => r.kind);
  }

  /** The batched route's answer for one receipt of `held`. */
  async function batched(held: Held, fields: Record<string, unknown>) {
    const body = {
      receipts: [
        {
          run_id: held.runId,
          call_id: held.callId,
          receipt: { executor_id: held.executorId, claim_id: held.claimId, grant: held.grant, ...fields },
        },
      ],
    };
    const answer = await server.call("POST", `/v1/executors/${held.executorId}/receipts`, {
      key: world.executorKey,
      body,
    });
    return expectStatus(answer, 200).data[0] as {
      status: number;
      body: { error?: { code: string }; replayed?: boolean };
    };
  }

  it("keeps maxProgressPerCall progress receipts per call; the next is 409, a replay still answers replayed", async () => {
    const held = await acceptedCall();
    for (const n of [1, 2, 3]) {
      const stored = await receipt(server, world, held, { receipt_id: `p${n}`, kind: "progress", progress: { n } });
      expect(expectStatus(stored, 200)).toMatchObject({ replayed: false, applied: true });
    }
    const fourth = await receipt(server, world, held, { receipt_id: "p4", kind: "progress", progress: { n: 4 } });
    expectError(fourth, 409, "progress_limit_exceeded");
    expect(fourth.body.error.details).toEqual({ stored: 3, maximum: 3 });
    const viaBatch = await batched(held, { receipt_id: "p5", kind: "progress", progress: { n: 5 } });
    expect({ status: viaBatch.status, code: viaBatch.body.error?.code }).toEqual({
      status: 409,
      code: "progress_limit_exceeded",
    });
    // A redelivery of a stored one is a replay, on either route.
    const replay = await receipt(server, world, held, { receipt_id: "p2", kind: "progress", progress: { n: 2 } });
    expect(expectStatus(replay, 200)).toMatchObject({ replayed: true, call_status: "accepted" });
    const batchReplay = await batched(held, { receipt_id: "p3", kind: "progress", progress: { n: 3 } });
    expect(batchReplay).toMatchObject({ status: 200, body: { replayed: true } });
    expect(await storedKinds(held)).toEqual(["accepted", "progress", "progress", "progress"]);
    // The final receipt is never refused for the progress limit, and its result is not held to maxProgressBytes.
    const result = { text: "y".repeat(10_000) };
    const done = await receipt(server, world, held, { receipt_id: "done", kind: "completed", result });
    expect(expectStatus(done, 200)).toMatchObject({ call_status: "completed" });
  });

  it("refuses a progress value over maxProgressBytes as compact JSON with 413, on both routes, storing nothing", async () => {
    const held = await acceptedCall();
    // Exactly the limit passes, however the sender spaces it.
    const fits = JSON.stringify({
      receipt_id: "fits",
      executor_id: held.executorId,
      claim_id: held.claimId,
      grant: held.grant,
      kind: "progress",
      progress: progressOf(LIMITS.maxProgressBytes),
    }).replace('"note":', '"note" :      ');
    expectStatus(await receipt(server, world, held, fits), 200);
    const over = await receipt(server, world, held, {
      receipt_id: "big",
      kind: "progress",
      progress: progressOf(LIMITS.maxProgressBytes + 1),
    });
    expectError(over, 413, "progress_too_large");
    expect(over.body.error.details).toEqual({ bytes: LIMITS.maxProgressBytes + 1, maximum: LIMITS.maxProgressBytes });
    const viaBatch = await batched(held, {
      receipt_id: "big2",
      kind: "progress",
      progress: progressOf(LIMITS.maxProgressBytes + 1),
    });
    expect({ status: viaBatch.status, code: viaBatch.body.error?.code }).toEqual({
      status: 413,
      code: "progress_too_large",
    });
    // Multi-byte text counts its UTF-8 bytes.
    const wide = await receipt(server, world, held, {
      receipt_id: "wide",
      kind: "progress",
      progress: { note: "é".repeat(30) },
    });
    expectError(wide, 413, "progress_too_large");
    expect(await storedKinds(held)).toEqual(["accepted", "progress"]);
    // The refused IDs were not taken: the same ID with a fitting body is stored.
    expectStatus(await receipt(server, world, held, { receipt_id: "big", kind: "progress", progress: { n: 1 } }), 200);
    expect(await storedKinds(held)).toEqual(["accepted", "progress", "progress"]);
  });
});
