/**
 * Trouble with the server, and what to do about it (pure). Every request the runner repeats on its
 * own (connect, heartbeat, pending, report, claim, receipt) belongs to a channel; a channel's failed
 * requests in a row of the same kind and code form a streak. A streak backs off exponentially (with
 * jitter, capped), is logged once when it starts — then at most every TROUBLE_REMINDER_MS, never per
 * attempt — and, when it is a refusal that retrying cannot cure, fails the runner once it lasted
 * `refusalGraceMs`. Transient trouble (no answer, 5xx, an unreadable 2xx) is retried for as long as
 * it lasts: it passes by itself, and the journal keeps everything meanwhile.
 */

import type { HttpOutcome } from "../http/http-outcome.js";
import { isTransientRefusal } from "../http/http-outcome.js";
import { type BackoffBounds, backoffDelayMs } from "./backoff.js";

/** The kinds of trouble. */
export const TROUBLE_KINDS = {
  /** No answer, a server error or overload (5xx, 429, 408), or a 2xx the runner cannot read. */
  transient: "transient",
  /** The server refuses this runner's key or executor (401, 403, 404 of the executor, another 4xx of an executor route). */
  refused: "refused",
} as const;

/** One kind of trouble. */
export type TroubleKind = keyof typeof TROUBLE_KINDS;

/** The requests the runner repeats on its own, each watched for trouble separately. */
export const TROUBLE_CHANNELS = {
  connect: "POST /v1/executors/connect",
  heartbeat: "POST /v1/executors/{executor_id}/heartbeat",
  pending: "GET /v1/executors/{executor_id}/pending",
  report: "POST /v1/executors/{executor_id}/calls/report",
  claim: "POST /v1/runs/{run_id}/tool-calls/{call_id}/claim",
  receipt: "POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts",
} as const;

/** One channel. */
export type TroubleChannel = keyof typeof TROUBLE_CHANNELS;

/** One failed request, classified. */
export interface Trouble {
  readonly kind: TroubleKind;
  /** What went wrong, stable within a streak: `401 unauthorized`, `503 storage_unavailable`, `unreachable`, `malformed_answer`. */
  readonly code: string;
  /** The HTTP status of a refusal (0 for no answer). */
  readonly status: number;
  /** A human-readable detail for logs. */
  readonly detail: string;
}

/** How long trouble on a channel has lasted. */
export interface TroubleStreak {
  readonly kind: TroubleKind;
  readonly code: string;
  /** When the first failure of the streak happened (epoch ms). */
  readonly sinceMs: number;
  /** Failures in the streak so far (this one included). */
  readonly failures: number;
  /** When the streak was last logged (epoch ms). */
  readonly warnedAtMs: number;
}

/** The bounds of the policy (from the runner options). */
export interface TroublePolicy {
  readonly backoff: BackoffBounds;
  /** How long a refusal streak may last before the runner fails. */
  readonly refusalGraceMs: number;
}

/** Once a streak was logged, it is logged again at most this often while it lasts. */
export const TROUBLE_REMINDER_MS = 60_000;

/** What to do after one failed request. */
export interface TroubleDecision {
  readonly streak: TroubleStreak;
  /** Wait this long before the channel's next attempt. */
  readonly delayMs: number;
  /** Log now: the streak started (`first`) or has gone on for another reminder period (`reminder`). */
  readonly log: "first" | "reminder" | null;
  /** The runner must fail: a refusal lasted `refusalGraceMs`. */
  readonly fatal: boolean;
}

/** Decides about `trouble` on a channel whose streak so far is `previous` (undefined: none). */
export function decideTrouble(
  previous: TroubleStreak | undefined,
  trouble: Trouble,
  nowMs: number,
  policy: TroublePolicy,
  random: number,
): TroubleDecision {
  const continues = previous !== undefined && previous.kind === trouble.kind && previous.code === trouble.code;
  const sinceMs = continues ? previous.sinceMs : nowMs;
  const failures = continues ? previous.failures + 1 : 1;
  const log = !continues ? "first" : nowMs - previous.warnedAtMs >= TROUBLE_REMINDER_MS ? "reminder" : null;
  const warnedAtMs = log !== null ? nowMs : (previous?.warnedAtMs ?? nowMs);
  return {
    streak: { kind: trouble.kind, code: trouble.code, sinceMs, failures, warnedAtMs },
    delayMs: backoffDelayMs(failures - 1, policy.backoff, random),
    log,
    fatal: trouble.kind === "refused" && nowMs - sinceMs >= policy.refusalGraceMs,
  };
}

/** The outcomes that are not an answer. */
type FailedOutcome = Exclude<HttpOutcome, { type: "answer" }>;

/**
 * The trouble of a failed request of an executor route (connect, heartbeat, pending, report). A
 * non-transient refusal of these concerns the runner itself (its key, scope or executor), so it is a
 * refusal; 409 `connection_offline` / `connection_superseded` are handled by the connection manager
 * before this is asked, and count as transient here (the next attempt runs on a new connection).
 */
export function executorTrouble(outcome: FailedOutcome): Trouble {
  const trouble = transientTrouble(outcome);
  if (trouble !== undefined || outcome.type !== "refused") return trouble ?? unreachable("no answer");
  const refused = refusalTrouble(outcome, "refused");
  return outcome.code === "connection_offline" || outcome.code === "connection_superseded"
    ? { ...refused, kind: "transient" }
    : refused;
}

/**
 * The trouble of a failed claim or receipt, or undefined when the refusal concerns this one call only
 * (a claim another executor won, a call that ended, a receipt refused for good). Only 401, 403
 * `forbidden` and 403 `executor_key_mismatch` (another key took the executor ID over) refuse the
 * runner's key itself: the receipt stays journaled until the key is fixed.
 */
export function callTrouble(outcome: FailedOutcome): Trouble | undefined {
  const trouble = transientTrouble(outcome);
  if (trouble !== undefined || outcome.type !== "refused") return trouble;
  const refusesTheKey =
    outcome.status === 401 ||
    (outcome.status === 403 && (outcome.code === "forbidden" || outcome.code === "executor_key_mismatch"));
  return refusesTheKey ? refusalTrouble(outcome, "refused") : undefined;
}

/** No answer, an unreadable answer, or a refusal worth retrying as it is (5xx, 429, 408); else undefined. */
function transientTrouble(outcome: FailedOutcome): Trouble | undefined {
  switch (outcome.type) {
    case "unreachable":
      return unreachable(outcome.message);
    case "malformed":
      return { kind: "transient", code: "malformed_answer", status: outcome.status, detail: outcome.error.message };
    case "refused":
      return isTransientRefusal(outcome.status) ? refusalTrouble(outcome, "transient") : undefined;
  }
}

function refusalTrouble(outcome: Extract<HttpOutcome, { type: "refused" }>, kind: TroubleKind): Trouble {
  const code = `${outcome.status} ${outcome.code}`;
  return { kind, code, status: outcome.status, detail: outcome.message === "" ? code : `${code}: ${outcome.message}` };
}

function unreachable(detail: string): Trouble {
  return { kind: "transient", code: "unreachable", status: 0, detail };
}

/** What a refusal with `status` usually means, for the first log line of a streak. */
export function refusalHint(status: number): string {
  switch (status) {
    case 401:
      return "the API key is unknown or revoked";
    case 403:
      return "the API key lacks a scope: executors:connect for the executor routes, tools:execute for claims and receipts";
    case 404:
      return "the server does not know this executor for this key (its binding scope changed?)";
    default:
      return "the server refuses this request as the runner sends it";
  }
}
