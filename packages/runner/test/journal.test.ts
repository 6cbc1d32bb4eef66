// The journal: assignments and the outbox, conditional state changes, sharing across connections.
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Journal } from "../src/journal/journal.js";
import {
  isOutboxEdge,
  JOURNAL_INITIAL_STATE,
  JOURNAL_STATES,
  JOURNAL_TRANSITIONS,
  type JournalState,
  JournalTransitionError,
  type NewAssignment,
  type NewReceipt,
  OUTBOX_STATES,
  OUTBOX_TRANSITIONS,
  type OutboxState,
} from "../src/journal/journal-records.js";
import { ILLEGAL_TRANSITION_MESSAGE } from "../src/journal/journal-schema.js";
import { tempDir } from "./support/temp-dir.js";

function assignment(callId: string, claimId = "clm-1"): NewAssignment {
  return {
    callId,
    runId: "run-1",
    toolName: "tasks.create",
    effect: "write",
    executorId: "exec-1",
    claimId,
    grant: "grant-secret",
    operationKey: `run-1:${callId}`,
    callJson: '{"call_id":"x"}',
  };
}

function receipt(id: string, kind: NewReceipt["kind"] = "accepted"): NewReceipt {
  return { receiptId: id, kind, bodyText: `{"receipt_id":"${id}","kind":"${kind}"}` };
}

function openJournal(): { journal: Journal; path: string } {
  const path = join(tempDir(), "journal.db");
  return { journal: Journal.open(path), path };
}

describe("journal assignments", () => {
  it("journals a new assignment with its accepted receipt, in state accepting", () => {
    const { journal } = openJournal();
    expect(journal.assign(assignment("c1"), receipt("r1"))).toEqual({ type: "journaled" });
    const entry = journal.get("c1");
    expect(entry).toMatchObject({
      state: "accepting",
      claimId: "clm-1",
      grant: "grant-secret",
      operationKey: "run-1:c1",
    });
    expect(journal.pendingReceipts("c1").map((r) => [r.receiptId, r.kind, r.state])).toEqual([
      ["r1", "accepted", "pending"],
    ]);
  });

  it("answers same_claim for the same claim and writes nothing", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    const again = journal.assign(assignment("c1"), receipt("r2"));
    expect(again.type).toBe("same_claim");
    expect(journal.receipts("c1").map((r) => r.receiptId)).toEqual(["r1"]);
  });

  it("replaces a claim that never started, retiring its unsent receipts", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1", "clm-old"), receipt("r1"));
    expect(journal.assign(assignment("c1", "clm-new"), receipt("r2"))).toEqual({ type: "journaled" });
    expect(journal.get("c1")?.claimId).toBe("clm-new");
    expect(journal.receipts("c1").map((r) => [r.receiptId, r.state])).toEqual([
      ["r1", "obsolete"],
      ["r2", "pending"],
    ]);
  });

  it("refuses a new claim of a call that started under another claim", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1", "clm-a"), receipt("r1"));
    expect(journal.transition("c1", { from: ["accepting"], to: "running" })).toBe(true);
    const outcome = journal.assign(assignment("c1", "clm-b"), receipt("r2"));
    expect(outcome.type).toBe("conflict");
    expect(journal.get("c1")?.claimId).toBe("clm-a");
    expect(journal.receipts("c1")).toHaveLength(1);
  });
});

describe("journal state changes", () => {
  it("changes state only from the expected states", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    expect(journal.transition("c1", { from: ["running"], to: "finishing" })).toBe(false);
    expect(journal.transition("c1", { from: ["accepting"], to: "running", reason: "confirmed" })).toBe(true);
    expect(journal.get("c1")).toMatchObject({ state: "running", stateReason: "confirmed" });
  });

  it("journals a receipt and its state change atomically, or neither", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    expect(journal.appendReceipt("c1", receipt("r2", "completed"), { from: ["running"], to: "finishing" })).toBe(false);
    expect(journal.receipts("c1")).toHaveLength(1);
    journal.transition("c1", { from: ["accepting"], to: "running" });
    expect(journal.appendReceipt("c1", receipt("r2", "completed"), { from: ["running"], to: "finishing" })).toBe(true);
    expect(journal.get("c1")?.state).toBe("finishing");
    expect(journal.pendingReceipts("c1").map((r) => r.receiptId)).toEqual(["r1", "r2"]);
  });

  it("checks the state without changing it when no target is given", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    expect(journal.appendReceipt("c1", receipt("p1", "progress"), { from: ["running"] })).toBe(false);
    journal.transition("c1", { from: ["accepting"], to: "running" });
    expect(journal.appendReceipt("c1", receipt("p1", "progress"), { from: ["running"] })).toBe(true);
    expect(journal.get("c1")?.state).toBe("running");
  });

  it("abandons an unstarted call and retires its pending receipts", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    expect(journal.abandon("c1", "not_confirmed")).toBe(true);
    expect(journal.get("c1")).toMatchObject({ state: "abandoned", stateReason: "not_confirmed" });
    expect(journal.receipts("c1")[0]?.state).toBe("obsolete");
    expect(journal.abandon("c1", "again")).toBe(false);
  });

  it("settles a receipt once: delivered or rejected, never both", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    journal.countAttempt("r1");
    expect(journal.markDelivered("r1", '{"replayed":false}')).toBe(true);
    expect(journal.markRejected("r1", "call_already_final")).toBe(false);
    expect(journal.receipts("c1")[0]).toMatchObject({
      state: "delivered",
      attempts: 1,
      answerJson: '{"replayed":false}',
    });
  });

  it("defers only a running call, and finds it by its handle", () => {
    const { journal } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    expect(journal.defer("c1", "dh_1")).toBe(false);
    journal.transition("c1", { from: ["accepting"], to: "running" });
    expect(journal.defer("c1", "dh_1")).toBe(true);
    expect(journal.byHandle("dh_1")).toMatchObject({ callId: "c1", state: "deferred" });
    expect(journal.byHandle("dh_unknown")).toBeUndefined();
  });

  it("lists calls with pending receipts oldest first, counts states and prunes closed calls", () => {
    let now = 1_000;
    const path = join(tempDir(), "journal.db");
    const journal = Journal.open(path, () => now);
    journal.assign(assignment("c1"), receipt("r1"));
    now += 10;
    journal.assign(assignment("c2"), receipt("r2"));
    journal.assign({ ...assignment("c3"), executorId: "exec-2" }, receipt("r3"));
    expect(journal.callsWithPendingReceipts(10, "exec-1")).toEqual(["c1", "c2"]);
    // Runners with other executor IDs may share the file: each sees only its own calls.
    expect(journal.callsWithPendingReceipts(10, "exec-2")).toEqual(["c3"]);
    expect(journal.entriesIn(["accepting"], "exec-2").map((entry) => entry.callId)).toEqual(["c3"]);
    expect(journal.entriesIn(["accepting"]).map((entry) => entry.callId)).toEqual(["c1", "c2", "c3"]);
    journal.abandon("c1", "not_confirmed");
    expect(journal.counts()).toMatchObject({ accepting: 2, abandoned: 1, outboxPending: 2 });
    expect(journal.prune(now)).toBe(0);
    expect(journal.prune(now + 1)).toBe(1);
    expect(journal.get("c1")).toBeUndefined();
    expect(journal.receipts("c1")).toEqual([]);
    expect(journal.get("c2")).toBeDefined();
  });
});

describe("journal durability and sharing", () => {
  it("keeps everything across a reopen, and runs in WAL with synchronous FULL", () => {
    const { journal, path } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    journal.close();
    const reopened = Journal.open(path);
    expect(reopened.durability()).toEqual({ journalMode: "wal", synchronous: 2 });
    expect(reopened.get("c1")?.state).toBe("accepting");
    expect(reopened.pendingReceipts("c1").map((r) => r.bodyText)).toEqual(['{"receipt_id":"r1","kind":"accepted"}']);
    reopened.close();
  });

  it("lets exactly one of two connections finish the same deferred call", () => {
    const { journal, path } = openJournal();
    journal.assign(assignment("c1"), receipt("r1"));
    journal.transition("c1", { from: ["accepting"], to: "running" });
    journal.defer("c1", "dh_1");
    const other = Journal.open(path);
    const first = other.appendReceipt("c1", receipt("done-a", "completed"), { from: ["deferred"], to: "finishing" });
    const second = journal.appendReceipt("c1", receipt("done-b", "failed"), { from: ["deferred"], to: "finishing" });
    expect([first, second]).toEqual([true, false]);
    expect(journal.receipts("c1").map((r) => r.receiptId)).toEqual(["r1", "done-a"]);
    other.close();
  });

  it("refuses a journal written by a newer schema", async () => {
    const { journal, path } = openJournal();
    journal.close();
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(path);
    db.prepare("UPDATE journal_meta SET value = '99' WHERE name = 'schema_version'").run();
    db.close();
    expect(() => Journal.open(path)).toThrow(/schema version 99/);
  });
});

describe("the journal's state machines", () => {
  const states = Object.keys(JOURNAL_STATES) as JournalState[];

  /** A shortest path of table edges from the initial state to every reachable state. */
  function pathsFromInitial(): Map<JournalState, JournalState[]> {
    const paths = new Map<JournalState, JournalState[]>([[JOURNAL_INITIAL_STATE, []]]);
    const queue: JournalState[] = [JOURNAL_INITIAL_STATE];
    for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
      for (const next of JOURNAL_TRANSITIONS[state]) {
        if (paths.has(next)) continue;
        paths.set(next, [...(paths.get(state) ?? []), next]);
        queue.push(next);
      }
    }
    return paths;
  }

  /** A fresh call walked along table edges into `state`. */
  function callIn(journal: Journal, callId: string, state: JournalState): void {
    journal.assign(assignment(callId), receipt(`r-${callId}`));
    let at: JournalState = JOURNAL_INITIAL_STATE;
    for (const next of pathsFromInitial().get(state) ?? []) {
      expect(journal.transition(callId, { from: [at], to: next })).toBe(true);
      at = next;
    }
    expect(journal.get(callId)?.state).toBe(state);
  }

  it("reaches every state from the initial one, and only done is terminal", () => {
    expect([...pathsFromInitial().keys()].sort()).toEqual([...states].sort());
    expect(states.filter((state) => JOURNAL_TRANSITIONS[state].length === 0)).toEqual(["done"]);
  });

  it("takes every edge of the table through transition()", () => {
    const { journal } = openJournal();
    let n = 0;
    for (const from of states) {
      for (const to of JOURNAL_TRANSITIONS[from]) {
        const callId = `edge-${n++}`;
        callIn(journal, callId, from);
        expect(journal.transition(callId, { from: [from], to, reason: "walk" }), `${from} -> ${to}`).toBe(true);
        expect(journal.get(callId)).toMatchObject({ state: to, stateReason: "walk" });
      }
    }
    expect(n).toBe(Object.values(JOURNAL_TRANSITIONS).flat().length);
    journal.close();
  });

  it("refuses every step that is not an edge, in the code and in the file's trigger", () => {
    const { journal, path } = openJournal();
    const raw = new Database(path);
    let refused = 0;
    for (const from of states) {
      for (const to of states) {
        if ((JOURNAL_TRANSITIONS[from] as readonly JournalState[]).includes(to)) continue;
        const callId = `non-edge-${refused++}`;
        callIn(journal, callId, from);
        expect(() => journal.transition(callId, { from: [from], to }), `${from} -> ${to}`).toThrow(
          JournalTransitionError,
        );
        // A change listing this step next to a legal one (another from-state with an edge to `to`) is refused whole.
        const legalFrom = states.find((other) => (JOURNAL_TRANSITIONS[other] as readonly JournalState[]).includes(to));
        if (legalFrom !== undefined) {
          expect(() => journal.transition(callId, { from: [legalFrom, from], to })).toThrow(JournalTransitionError);
        }
        if (from !== to) {
          expect(() => raw.prepare("UPDATE assignments SET state = ? WHERE call_id = ?").run(to, callId)).toThrow(
            ILLEGAL_TRANSITION_MESSAGE,
          );
        }
        expect(journal.get(callId)?.state).toBe(from);
      }
    }
    expect(refused).toBe(states.length ** 2 - Object.values(JOURNAL_TRANSITIONS).flat().length);
    raw.close();
    journal.close();
  });

  it("refuses a legal step when the call is not in its from-state, without throwing", () => {
    const { journal } = openJournal();
    callIn(journal, "c1", "finishing");
    expect(journal.transition("c1", { from: ["running"], to: "finishing" })).toBe(false);
    expect(journal.defer("c1", "dh_1")).toBe(false);
    expect(journal.abandon("c1", "late")).toBe(false);
    expect(journal.get("c1")?.state).toBe("finishing");
  });

  it("settles outbox receipts only along their edges", () => {
    const { journal, path } = openJournal();
    const outboxStates = Object.keys(OUTBOX_STATES) as OutboxState[];
    journal.assign(assignment("c1"), receipt("to-deliver"));
    journal.transition("c1", { from: ["accepting"], to: "running" });
    journal.appendReceipt("c1", receipt("to-reject", "progress"));
    expect(journal.markDelivered("to-deliver", "{}")).toBe(true);
    expect(journal.markRejected("to-reject", "invalid_grant")).toBe(true);
    journal.assign(assignment("c2"), receipt("to-retire"));
    journal.abandon("c2", "not_confirmed");
    const stateOf = (id: string) =>
      [...journal.receipts("c1"), ...journal.receipts("c2")].find((r) => r.receiptId === id)?.state;
    const walked = { delivered: "to-deliver", rejected: "to-reject", obsolete: "to-retire" } as const;
    for (const to of OUTBOX_TRANSITIONS.pending) expect(stateOf(walked[to])).toBe(to);
    // Settled receipts never move again: not in the code (only pending settles) nor in the file.
    expect(journal.markRejected("to-deliver", "late")).toBe(false);
    const raw = new Database(path);
    for (const [to, id] of Object.entries(walked)) {
      for (const other of outboxStates) {
        if (other === to) continue;
        expect(isOutboxEdge(to as OutboxState, other)).toBe(false);
        expect(() => raw.prepare("UPDATE outbox SET state = ? WHERE receipt_id = ?").run(other, id)).toThrow(
          ILLEGAL_TRANSITION_MESSAGE,
        );
      }
      expect(stateOf(id)).toBe(to);
    }
    raw.close();
    journal.close();
  });
});
