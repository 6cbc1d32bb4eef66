// The call-transition table is what the stores do: every statement that moves calls is run against
// a call in every status (and, for the statements told where to move, every target), and the moves
// it makes must be exactly the table's edges for the events the store declares it takes; together
// the stores take every event of the table. On both dialects.
import { CALL_EVENTS, CALL_STATUSES, type CallEvent, type CallStatus, transitionCall } from "@toolhost/protocol";
import { expect, it } from "vitest";
import { CALL_CLAIM_MOVES } from "../../src/storage/calls/call-claim-store.js";
import { CALL_STORE_MOVES } from "../../src/storage/calls/call-store.js";
import { PENDING_CALL_MOVES } from "../../src/storage/calls/pending-call-store.js";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import type { CallRecord } from "../../src/storage/records.js";
import { callRecord, connectExecutor, publishRuntime, runRecord } from "../support/call-fixtures.js";
import { describeEachDialect, useTestStorage } from "../support/test-databases.js";

const STATUSES = Object.values(CALL_STATUSES);
const NOW = 10_000;

/** A move `from → to`, as text (sets of them compare simply). */
const move = (from: CallStatus, to: CallStatus): string => `${from} → ${to}`;

/** The moves the table allows along `paths` (each path's events taken one after the other). */
function tableMoves(paths: readonly (readonly CallEvent[])[]): string[] {
  const moves = new Set<string>();
  for (const from of STATUSES) {
    for (const path of paths) {
      let at: CallStatus | undefined = from;
      for (const event of path) {
        const transition: ReturnType<typeof transitionCall> | undefined =
          at === undefined ? undefined : transitionCall(at, event);
        at = transition?.ok ? transition.to : undefined;
      }
      if (at !== undefined) moves.add(move(from, at));
    }
  }
  return [...moves].sort();
}

/**
 * A call of `runId` in `status`, held by e1's claim clm1 in every status (so only the statement's
 * status conditions decide), its accept window lapsed or open and its deadline passed or not.
 */
function heldCall(
  runId: string,
  callId: string,
  status: CallStatus,
  position: number,
  window: { acceptDeadlineMs: number; deadlineMs: number },
): CallRecord {
  return callRecord(runId, callId, {
    status,
    position,
    executor_id: "e1",
    claim_id: "clm1",
    grant_hash: "hash-clm1",
    claimed_at_ms: 1_000,
    accept_deadline_ms: window.acceptDeadlineMs,
    deadline_ms: window.deadlineMs,
  });
}

const LAPSED = { acceptDeadlineMs: 5_000, deadlineMs: 100_000 };
const OPEN = { acceptDeadlineMs: 50_000, deadlineMs: 100_000 };
const OVERDUE = { acceptDeadlineMs: 50_000, deadlineMs: 5_000 };

describeEachDialect("call moves of the stores against the transition table", (dialect) => {
  const storage = useTestStorage(dialect);

  /** A run `r1` with one call per status (`c-<status>`), executors e1 and e2 connected with key k1. */
  async function seed(window: typeof OPEN): Promise<KyselyStorage> {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    await s.calls.insertMany(STATUSES.map((status, i) => heldCall("r1", `c-${status}`, status, i, window)));
    await connectExecutor(s, "e1", "conn-e1");
    await connectExecutor(s, "e2", "conn-e2");
    return s;
  }

  /** Every call's status now, by the status it was seeded in. */
  async function statusesAfter(s: KyselyStorage): Promise<Map<CallStatus, CallRecord>> {
    const calls = new Map<CallStatus, CallRecord>();
    for (const status of STATUSES) {
      const call = await s.calls.get("r1", `c-${status}`);
      if (call === undefined) throw new Error(`call c-${status} vanished`);
      calls.set(status, call);
    }
    return calls;
  }

  /** The moves made, from the calls as stored (a changed status, or a changed claim for claim take-overs). */
  async function movesMade(s: KyselyStorage): Promise<string[]> {
    const moves: string[] = [];
    for (const [from, call] of await statusesAfter(s)) {
      if (call.status !== from || call.claim_id !== "clm1") moves.push(move(from, call.status));
    }
    return moves.sort();
  }

  it("claim: pending → claimed, and a lapsed claimed → claimed (release, then claim)", async () => {
    const s = await seed(LAPSED);
    for (const status of STATUSES) {
      await s.callClaims.claim({
        run_id: "r1",
        call_id: `c-${status}`,
        executor_id: "e2",
        connection_id: "conn-e2",
        key_id: "k1",
        claim_id: `clm-new-${status}`,
        grant_hash: "hash-new",
        now_ms: NOW,
        accept_deadline_ms: NOW + 30_000,
      });
    }
    expect(await movesMade(s)).toEqual(tableMoves(CALL_CLAIM_MOVES.claim));
  });

  it("accept: claimed → accepted", async () => {
    const s = await seed(OPEN);
    for (const status of STATUSES) {
      await s.callClaims.accept({ call_id: `c-${status}`, claim_id: "clm1", key_id: "k1" }, NOW);
    }
    expect(await movesMade(s)).toEqual(tableMoves(CALL_CLAIM_MOVES.accept));
  });

  it("releaseLapsedClaims (accept windows): claimed → pending", async () => {
    const lapsed = await seed(LAPSED);
    await lapsed.callClaims.releaseLapsedClaims(NOW, 100);
    expect(await movesMade(lapsed)).toEqual(tableMoves(CALL_CLAIM_MOVES.releaseLapsedClaims));
  });

  it("releaseClaimedBy (detach, lease lapse): claimed → pending", async () => {
    const s = await seed(OPEN);
    await s.pendingCalls.releaseClaimedBy("e1", NOW);
    expect(await movesMade(s)).toEqual(tableMoves(PENDING_CALL_MOVES.releaseClaimedBy));
  });

  it("cancelForRunEnd: the run_ended edges", async () => {
    const ended = await seed(OPEN);
    await ended.calls.cancelForRunEnd("r1", NOW);
    expect(await movesMade(ended)).toEqual(tableMoves(CALL_STORE_MOVES.cancelForRunEnd));
  });

  it("cancelUnclaimed: the cancel_unclaimed edges", async () => {
    const s = await seed(OPEN);
    for (const status of STATUSES) await s.calls.cancelUnclaimed("r1", `c-${status}`, NOW);
    expect(await movesMade(s)).toEqual(tableMoves(CALL_STORE_MOVES.cancelUnclaimed));
  });

  it("requestCancel: records the request on held calls and moves none", async () => {
    const s = await seed(OPEN);
    const asked: CallStatus[] = [];
    for (const status of STATUSES) {
      if ((await s.calls.requestCancel("r1", `c-${status}`, NOW)) !== undefined) asked.push(status);
    }
    expect(await movesMade(s)).toEqual(tableMoves(CALL_STORE_MOVES.requestCancel));
    expect(asked).toEqual(["claimed", "accepted", "reconciliation_required"]);
  });

  /** Seeds one call per (from, to) pair (`p-<from>-<to>`) and answers the moves `attempt` made. */
  async function pairMoves(
    window: typeof OPEN,
    attempt: (s: KyselyStorage, callId: string, from: CallStatus, to: CallStatus) => Promise<unknown>,
  ): Promise<string[]> {
    const s = storage();
    await publishRuntime(s);
    await s.runs.insert(runRecord("r1"));
    const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));
    await s.calls.insertMany(pairs.map(([from, to], i) => heldCall("r1", `p-${from}-${to}`, from, i, window)));
    await connectExecutor(s, "e1", "conn-e1");
    const moves: string[] = [];
    for (const [from, to] of pairs) {
      // A pair the table does not have is refused before any SQL runs, or matches no row.
      await attempt(s, `p-${from}-${to}`, from, to).catch(() => undefined);
      const now = (await s.calls.get("r1", `p-${from}-${to}`))?.status;
      if (now !== from) moves.push(move(from, to));
      if (now !== from) expect(now).toBe(to);
    }
    return moves.sort();
  }

  it("settle (receipts): exactly the complete, fail, confirm_cancel and report_unknown edges", async () => {
    const moves = await pairMoves(OPEN, (s, callId, from, to) =>
      s.callClaims.settle({ call_id: callId, claim_id: "clm1", key_id: "k1" }, from, to, NOW),
    );
    expect(moves).toEqual(tableMoves(CALL_CLAIM_MOVES.settle));
  });

  it("settleOverdue (the deadline sweep): exactly the deadline edges", async () => {
    const moves = await pairMoves(OVERDUE, (s, callId, from, to) => s.callClaims.settleOverdue(callId, from, to, NOW));
    expect(moves).toEqual(tableMoves(CALL_CLAIM_MOVES.settleOverdue));
  });
});

it("together the stores take every event of the table", () => {
  const declared = [CALL_CLAIM_MOVES, CALL_STORE_MOVES, PENDING_CALL_MOVES].flatMap((moves) =>
    Object.values(moves).flatMap((paths) => paths.flat()),
  );
  expect([...new Set(declared)].sort()).toEqual(Object.keys(CALL_EVENTS).sort());
});
