// The pure parts of the runner's robustness: reading answers against the wire schemas (unknown members
// dropped, anything else a problem value), classifying failed requests into trouble, the streak
// policy (back-off bounds, one log line per streak, failing only on refusals that outlast their
// grace), and the runner's state table.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  callTrouble,
  decideTrouble,
  executorTrouble,
  TROUBLE_REMINDER_MS,
  type Trouble,
  type TroubleStreak,
} from "../src/decisions/trouble-policy.js";
import { ANSWER_READERS, answerOutcome } from "../src/http/answer-reader.js";
import type { HttpOutcome } from "../src/http/http-outcome.js";
import { isRunnerEdge, RUNNER_STATES, RUNNER_TRANSITIONS, type RunnerState } from "../src/runner-state.js";

const HEARTBEAT = {
  executor_id: "e1",
  connection_id: "conn-1",
  lease_expires_at: "2026-09-30T12:00:00.000Z",
  heartbeat_interval_ms: 5_000,
  cancellations: [],
};

describe("answer readers", () => {
  const read = (text: string) => ANSWER_READERS.heartbeat.read(text);

  it("reads an answer of the wire shape, dropping members the schema does not define", () => {
    const answer = read(JSON.stringify({ ...HEARTBEAT, added_by_a_newer_server: { x: 1 } }));
    expect(answer).toEqual({ ok: true, value: HEARTBEAT });
  });

  it("turns anything else into a problem naming it, never a throw", () => {
    const cases: Array<[string, RegExp]> = [
      ["<!DOCTYPE html><html><body>Bad gateway</body></html>", /^not JSON: "<!DOCTYPE html>/],
      ["", /^not JSON: an empty body$/],
      ['{"executor_id":"e1"', /^not JSON/],
      ["null", /^the answer: /],
      ["[]", /^the answer: /],
      [JSON.stringify({ ...HEARTBEAT, heartbeat_interval_ms: "5000" }), /^\/heartbeat_interval_ms: /],
      [JSON.stringify({ ...HEARTBEAT, cancellations: [{ call_id: "c1" }] }), /^\/cancellations\/0/],
      [JSON.stringify({ ...HEARTBEAT, lease_expires_at: "tomorrow" }), /^\/lease_expires_at: /],
    ];
    for (const [text, problem] of cases) {
      const answer = read(text);
      expect(answer.ok, text).toBe(false);
      if (!answer.ok) expect(answer.problem, text).toMatch(problem);
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => read(text)).not.toThrow();
      }),
    );
  });

  it("makes a 2xx it cannot read a malformed outcome carrying a RunnerError", () => {
    const outcome = answerOutcome(ANSWER_READERS.claim, 200, "<html>", "text/html");
    expect(outcome).toMatchObject({
      type: "malformed",
      status: 200,
      error: {
        name: "RunnerError",
        code: "malformed_answer",
        details: { route: "POST /v1/runs/{run_id}/tool-calls/{call_id}/claim", status: 200, contentType: "text/html" },
      },
    });
  });
});

describe("trouble of failed requests", () => {
  const refused = (status: number, code: string): HttpOutcome => ({
    type: "refused",
    status,
    code,
    message: "",
    details: undefined,
  });
  const malformed = answerOutcome(ANSWER_READERS.pending, 200, "<html>", "text/html") as Exclude<
    HttpOutcome,
    { type: "answer" }
  >;
  const failed = (outcome: HttpOutcome) => outcome as Exclude<HttpOutcome, { type: "answer" }>;

  it("is transient for no answer, server errors, overload and unreadable answers, on every route", () => {
    for (const outcome of [
      failed({ type: "unreachable", message: "ECONNRESET", aborted: false }),
      failed(refused(500, "internal_error")),
      failed(refused(503, "storage_unavailable")),
      failed(refused(429, "http_429")),
      failed(refused(408, "http_408")),
      malformed,
    ]) {
      expect(executorTrouble(outcome).kind).toBe("transient");
      expect(callTrouble(outcome)?.kind).toBe("transient");
    }
    expect(executorTrouble(malformed).code).toBe("malformed_answer");
  });

  it("is a refusal for every other 4xx of an executor route, and only for 401 / 403 forbidden / 403 executor_key_mismatch of a call route", () => {
    for (const [status, code] of [
      [401, "unauthorized"],
      [403, "forbidden"],
      [404, "not_found"],
      [422, "validation_failed"],
      [409, "conflict"],
    ] as const) {
      expect(executorTrouble(failed(refused(status, code))), code).toMatchObject({
        kind: "refused",
        code: `${status} ${code}`,
        status,
      });
    }
    expect(callTrouble(failed(refused(401, "unauthorized")))?.kind).toBe("refused");
    expect(callTrouble(failed(refused(403, "forbidden")))?.kind).toBe("refused");
    expect(callTrouble(failed(refused(403, "executor_key_mismatch")))?.kind).toBe("refused");
    for (const [status, code] of [
      [403, "invalid_grant"],
      [404, "not_found"],
      [409, "already_claimed"],
      [409, "run_terminated"],
      [409, "connection_offline"],
      [422, "validation_failed"],
    ] as const) {
      expect(callTrouble(failed(refused(status, code))), code).toBeUndefined();
    }
  });
});

describe("decideTrouble", () => {
  const policy = { backoff: { minMs: 100, maxMs: 10_000 }, refusalGraceMs: 60_000 };
  const trouble = (kind: Trouble["kind"], code = "403 forbidden"): Trouble => ({
    kind,
    code,
    status: 403,
    detail: code,
  });

  it("logs a streak once when it starts, then at most once per reminder period; a new code starts a new streak", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30_000 }), fc.boolean()), { minLength: 1, maxLength: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (steps, random) => {
          let streak: TroubleStreak | undefined;
          let now = 1_000_000;
          let lastLog = Number.NEGATIVE_INFINITY;
          let previousCode: string | undefined;
          for (const [gapMs, switchCode] of steps) {
            now += gapMs;
            const code = switchCode ? (previousCode === "a" ? "b" : "a") : (previousCode ?? "a");
            const decision = decideTrouble(streak, trouble("transient", code), now, policy, random);
            const fresh = code !== previousCode;
            if (fresh) expect(decision.log).toBe("first");
            else expect(decision.log).toBe(now - lastLog >= TROUBLE_REMINDER_MS ? "reminder" : null);
            if (decision.log !== null) lastLog = now;
            expect(decision.delayMs).toBeGreaterThanOrEqual(1);
            expect(decision.delayMs).toBeLessThanOrEqual(policy.backoff.maxMs);
            expect(decision.fatal).toBe(false);
            streak = decision.streak;
            previousCode = code;
          }
        },
      ),
    );
  });

  it("backs off exponentially within the bounds", () => {
    let streak: TroubleStreak | undefined;
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const decision = decideTrouble(streak, trouble("refused"), 1_000 + i, policy, 0);
      streak = decision.streak;
      delays.push(decision.delayMs);
    }
    expect(delays).toEqual([50, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000]);
  });

  it("fails only a refusal, once it has lasted refusalGraceMs", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 30 }), (gaps) => {
        let refusal: TroubleStreak | undefined;
        let transient: TroubleStreak | undefined;
        let now = 5_000;
        let firstRefusalAt = now;
        for (const gap of gaps) {
          now += gap;
          if (refusal === undefined) firstRefusalAt = now;
          const refused = decideTrouble(refusal, trouble("refused"), now, policy, 0.5);
          expect(refused.fatal).toBe(now - firstRefusalAt >= policy.refusalGraceMs);
          refusal = refused.streak;
          const passing = decideTrouble(transient, trouble("transient"), now, policy, 0.5);
          expect(passing.fatal).toBe(false);
          transient = passing.streak;
        }
      }),
    );
  });
});

describe("the runner's state table", () => {
  const states = Object.keys(RUNNER_STATES) as RunnerState[];

  it("reaches every state from created; stopped and failed are terminal; failing is possible only while starting or started", () => {
    const seen = new Set<RunnerState>(["created"]);
    for (const queue: RunnerState[] = ["created"]; queue.length > 0; ) {
      for (const next of RUNNER_TRANSITIONS[queue.shift() as RunnerState]) {
        if (!seen.has(next)) queue.push(next);
        seen.add(next);
      }
    }
    expect([...seen].sort()).toEqual([...states].sort());
    expect(states.filter((state) => RUNNER_TRANSITIONS[state].length === 0).sort()).toEqual(["failed", "stopped"]);
    expect(states.filter((state) => isRunnerEdge(state, "failed")).sort()).toEqual(["started", "starting"]);
  });
});
