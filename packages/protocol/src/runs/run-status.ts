/**
 * The states of a run and its transition table. A run is driven by its model: each model turn either
 * emits tool calls (the run waits for them) or a message (the run completes).
 */

/** Every run status, with what it means. */
export const RUN_STATUSES = {
  /** Created; the first model turn has not started. */
  queued: "queued",
  /** A model turn is in progress. */
  running: "running",
  /** The model asked for tools; the run waits until every call of the step has settled. */
  waiting_for_tools: "waiting_for_tools",
  /** The model produced its final message (terminal). */
  completed: "completed",
  /** The run could not go on: model error, exhausted script, context window exceeded (terminal). */
  failed: "failed",
  /** Cancelled through `POST /runs/{id}/cancel` (terminal). */
  cancelled: "cancelled",
  /** The run's own deadline passed (terminal). */
  expired: "expired",
} as const;

/** One run status. */
export type RunStatus = keyof typeof RUN_STATUSES;

/** Statuses a run never leaves. */
export const TERMINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(["completed", "failed", "cancelled", "expired"]);

/** What can happen to a run. */
export const RUN_EVENTS = {
  /** A model turn starts. */
  start_turn: "start_turn",
  /** The model asked for tools. */
  await_tools: "await_tools",
  /** The model produced its final message. */
  complete: "complete",
  /** The run cannot go on. */
  fail: "fail",
  /** The run was cancelled. */
  cancel: "cancel",
  /** The run's deadline passed. */
  expire: "expire",
} as const;

/** One run event. */
export type RunEvent = keyof typeof RUN_EVENTS;

/** Allowed transitions: status → event → next status. Terminal statuses accept nothing. */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, Readonly<Partial<Record<RunEvent, RunStatus>>>>> = {
  queued: { start_turn: "running", cancel: "cancelled", expire: "expired", fail: "failed" },
  running: {
    await_tools: "waiting_for_tools",
    complete: "completed",
    fail: "failed",
    cancel: "cancelled",
    expire: "expired",
  },
  waiting_for_tools: { start_turn: "running", fail: "failed", cancel: "cancelled", expire: "expired" },
  completed: {},
  failed: {},
  cancelled: {},
  expired: {},
};

/** The outcome of asking the table. */
export type RunTransition = { ok: true; to: RunStatus } | { ok: false; from: RunStatus; event: RunEvent };

/** Where `event` takes a run in `from`, if the table allows it. */
export function transitionRun(from: RunStatus, event: RunEvent): RunTransition {
  const to = RUN_TRANSITIONS[from][event];
  return to === undefined ? { ok: false, from, event } : { ok: true, to };
}
