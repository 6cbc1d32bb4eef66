/**
 * The run limits (pure; docs/runs.md#limits): the server's `maxTurns`, `maxToolCalls` and
 * `runTimeoutMs`, which an agent version may lower (never raise), are fixed on a run when it is
 * created. A run that would start one turn too many, or whose model asks for more tool calls than it
 * has left, fails `run_limit_exceeded` with a message naming the limit; one past its deadline is
 * `expired` by the run deadline sweep. One model turn carries at most MAX_CALLS_PER_TURN calls: the
 * extra ones are refused (`too_many_calls`) and answered to the model as tool errors.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { RunLimitField } from "@toolhost/protocol/wire";
import type { RunFailure } from "../models/model-turn.js";
import type { RunRecord } from "../storage/records.js";

/** The run error code of every run limit. */
export const RUN_LIMIT_EXCEEDED = "run_limit_exceeded";

/** Most tool calls one model turn may carry; the rest are refused as tool errors. */
export const MAX_CALLS_PER_TURN = 64;

/** The three limits, as the server options name them. */
export interface RunLimits {
  readonly maxTurns: number;
  readonly maxToolCalls: number;
  readonly runTimeoutMs: number;
}

/** An agent version's own limits (null: the server's). */
export interface VersionRunLimits {
  readonly max_turns: number | null;
  readonly max_tool_calls: number | null;
  readonly run_timeout_ms: number | null;
}

/** The server option each agent version field is bounded by. */
const SERVER_OPTION: Readonly<Record<RunLimitField, keyof RunLimits>> = {
  max_turns: "maxTurns",
  max_tool_calls: "maxToolCalls",
  run_timeout_ms: "runTimeoutMs",
};

/**
 * Checks the run limit fields of a new agent version against the server's: each at most its option,
 * else 422 `validation_failed` at the field's pointer. Answers the fields to store (null: unset).
 */
export function versionRunLimits(body: Partial<Record<RunLimitField, number>>, server: RunLimits): VersionRunLimits {
  const checked = (field: RunLimitField): number | null => {
    const value = body[field];
    if (value === undefined) return null;
    const option = SERVER_OPTION[field];
    if (value > server[option]) {
      throw new ProtocolError(
        "validation_failed",
        `${field} must be at most the server's ${option} (${server[option]}), got ${value}`,
        `/${field}`,
        { limit: option, maximum: server[option] },
      );
    }
    return value;
  };
  return {
    max_turns: checked("max_turns"),
    max_tool_calls: checked("max_tool_calls"),
    run_timeout_ms: checked("run_timeout_ms"),
  };
}

/** The limits a new run of `version` gets: the version's where set (never above the server's), else the server's. */
export function runLimitsOf(version: VersionRunLimits, server: RunLimits): RunLimits {
  const lower = (own: number | null, limit: number) => (own === null ? limit : Math.min(own, limit));
  return {
    maxTurns: lower(version.max_turns, server.maxTurns),
    maxToolCalls: lower(version.max_tool_calls, server.maxToolCalls),
    runTimeoutMs: lower(version.run_timeout_ms, server.runTimeoutMs),
  };
}

/** The failure of a run that has made all its turns and would start another; undefined while it may. */
export function turnLimitFailure(
  run: Pick<RunRecord, "turn" | "max_turns">,
  turnsStarted: number,
): RunFailure | undefined {
  if (turnsStarted < run.max_turns) return undefined;
  return {
    code: RUN_LIMIT_EXCEEDED,
    message: `the run made its ${run.max_turns} model turns (max_turns) without a final answer`,
  };
}

/** The failure of a run whose model asks for `asked` more calls than its `max_tool_calls` leaves; undefined when they fit. */
export function toolCallLimitFailure(
  run: Pick<RunRecord, "tool_call_count" | "max_tool_calls">,
  asked: number,
): RunFailure | undefined {
  if (run.tool_call_count + asked <= run.max_tool_calls) return undefined;
  return {
    code: RUN_LIMIT_EXCEEDED,
    message: `the model asked for ${asked} tool calls after ${run.tool_call_count}, over the run's ${run.max_tool_calls} (max_tool_calls)`,
  };
}

/** The failure stored on a run that passed its deadline (status `expired`). */
export function timeoutFailure(run: Pick<RunRecord, "created_at_ms" | "deadline_ms">): RunFailure {
  const timeoutMs = run.deadline_ms === null ? null : run.deadline_ms - run.created_at_ms;
  return {
    code: RUN_LIMIT_EXCEEDED,
    message: `the run did not end within its ${timeoutMs ?? "?"} ms (run_timeout_ms)`,
  };
}
