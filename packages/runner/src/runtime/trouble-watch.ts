/**
 * The runner's watch over trouble with the server, per channel (connect, heartbeat, pending, report,
 * claim, receipt): it keeps each channel's streak, answers how long the channel backs off, logs a
 * streak once when it starts (a reminder at most every minute while it lasts, and once when it ends)
 * instead of once per attempt, and fails the runner when a refusal outlasts `refusalGraceMs`.
 */

import {
  decideTrouble,
  refusalHint,
  TROUBLE_CHANNELS,
  type Trouble,
  type TroubleChannel,
  type TroubleDecision,
  type TroubleStreak,
} from "../decisions/trouble-policy.js";
import { RunnerError } from "../errors.js";
import type { RunnerLogger } from "../logger.js";
import type { CompiledRunnerOptions } from "../options.js";
import type { StatsCounters } from "../stats.js";

/** What the watch needs. */
export interface TroubleWatchDeps {
  readonly options: CompiledRunnerOptions;
  readonly logger: RunnerLogger;
  readonly stats: StatsCounters;
  /** Fails the runner (a refusal lasted too long). */
  readonly fail: (error: RunnerError) => void;
}

/** Streaks and back-off per channel. */
export class TroubleWatch {
  readonly #streaks = new Map<TroubleChannel, TroubleStreak>();
  readonly #pausedUntilMs = new Map<TroubleChannel, number>();

  constructor(private readonly deps: TroubleWatchDeps) {}

  /**
   * Records a failed request of `channel`; logs it when its streak starts (or is due a reminder), fails
   * the runner when it is a refusal that lasted `refusalGraceMs`, and answers the decision (its
   * `delayMs` is the wait before the channel's next attempt).
   */
  report(channel: TroubleChannel, trouble: Trouble): TroubleDecision {
    const { options, logger, stats } = this.deps;
    const nowMs = performance.now();
    const policy = {
      backoff: { minMs: options.retryBackoffMinMs, maxMs: options.retryBackoffMaxMs },
      refusalGraceMs: options.refusalGraceMs,
    };
    const decision = decideTrouble(this.#streaks.get(channel), trouble, nowMs, policy, options.random());
    this.#streaks.set(channel, decision.streak);
    this.#pausedUntilMs.set(channel, nowMs + decision.delayMs);
    if (trouble.kind === "refused") stats.add("refusals");
    if (trouble.code === "malformed_answer") stats.add("malformed_answers");
    const fields = {
      channel,
      route: TROUBLE_CHANNELS[channel],
      code: trouble.code,
      detail: trouble.detail,
      failures: decision.streak.failures,
      forMs: nowMs - decision.streak.sinceMs,
      retryInMs: decision.delayMs,
    };
    if (decision.log !== null) logger.warn(messageOf(channel, trouble, decision, options.refusalGraceMs), fields);
    else logger.debug(`${channel} failed again`, fields);
    if (decision.fatal) {
      const code = channel === "connect" ? "connect_refused" : "access_refused";
      this.deps.fail(
        new RunnerError(
          code,
          `the server refused ${channel} requests for ${Math.round(fields.forMs / 1000)} s (${trouble.detail}): ${refusalHint(trouble.status)}`,
          { channel, status: trouble.status, code: trouble.code, failures: decision.streak.failures },
        ),
      );
    }
    return decision;
  }

  /** A request of `channel` was answered: its streak (if any) ends, and that is logged. */
  clear(channel: TroubleChannel): void {
    const streak = this.#streaks.get(channel);
    this.#pausedUntilMs.delete(channel);
    if (streak === undefined) return;
    this.#streaks.delete(channel);
    this.deps.logger.info(`${channel} requests work again`, {
      channel,
      code: streak.code,
      failures: streak.failures,
      forMs: performance.now() - streak.sinceMs,
    });
  }

  /** True while `channel` has a streak (its last request failed). */
  troubled(channel: TroubleChannel): boolean {
    return this.#streaks.has(channel);
  }

  /** Until when `channel` backs off (epoch ms; 0 when it need not wait). */
  pausedUntilMs(channel: TroubleChannel): number {
    return this.#pausedUntilMs.get(channel) ?? 0;
  }
}

function messageOf(channel: TroubleChannel, trouble: Trouble, decision: TroubleDecision, graceMs: number): string {
  const still = decision.log === "reminder" ? "still: " : "";
  if (trouble.kind === "refused") {
    return `${still}the server refuses ${channel} requests (${trouble.code}): ${refusalHint(trouble.status)}; backing off, the runner fails if this lasts ${Math.round(graceMs / 1000)} s`;
  }
  return `${still}${channel} requests fail (${trouble.code}); retrying with backoff`;
}
