/**
 * `waitForRun`: resolves with the run once it reached a terminal status (`completed`, `failed`,
 * `cancelled`, `expired`), following its event stream instead of polling; rejects with
 * `RunWaitTimeout` after `timeoutMs`.
 */

import { apiErrorOf, isTerminalStatus, runEvents, type StreamTarget, TERMINAL_RUN_STATUSES } from "./run-events.js";

/** How long to wait. */
export interface WaitForRunOptions {
  /** Give up after this long (default 60 s). */
  readonly timeoutMs?: number;
  /** Stops waiting (rejects with the signal's reason). */
  readonly signal?: AbortSignal;
}

/** `waitForRun` ran out of time; `status` is the last one seen. */
export class RunWaitTimeout extends Error {
  constructor(
    readonly runId: string,
    readonly status: string | undefined,
    readonly timeoutMs: number,
  ) {
    super(`run ${runId} is still ${status ?? "unknown"} after ${timeoutMs} ms`);
    this.name = "RunWaitTimeout";
  }
}

/** A run as the API shows it (`GET /v1/runs/{run_id}`). */
export type RunAnswer = { run_id: string; status: string } & Record<string, unknown>;

/** Waits for run `runId` to end; the run as `GET /v1/runs/{run_id}` shows it then. */
export async function waitForRun(
  target: StreamTarget,
  runId: string,
  options: WaitForRunOptions = {},
): Promise<RunAnswer> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const url = `${target.baseUrl}/v1/runs/${encodeURIComponent(runId)}`;
  const response = await target.fetch(new Request(url, { headers: { ...target.headers }, signal }));
  if (!response.ok) throw await apiErrorOf(response, `GET /v1/runs/${runId}`);
  let run = (await response.json()) as RunAnswer;
  if (TERMINAL_RUN_STATUSES.has(run.status)) return run;
  for await (const event of runEvents(target, runId, { signal })) {
    if (event.event === "run.status") run = event.data as RunAnswer;
    if (isTerminalStatus(event)) return run;
  }
  if (options.signal?.aborted === true) throw options.signal.reason;
  throw new RunWaitTimeout(runId, run.status, timeoutMs);
}
