/**
 * Where a ToolRunner is in its life, as a table of states and allowed moves. `failed` is terminal like
 * `stopped`: a runner that failed stopped itself (in-flight calls drained, undelivered receipts left
 * journaled for the next start) and reports why through `start()`, `done()` and the `failed` event.
 */

/** The states of a runner. */
export const RUNNER_STATES = {
  /** Constructed; `start()` not called yet (deferred calls of the journal can be finished). */
  created: "created",
  /** `start()` is connecting and recovering the journal. */
  starting: "starting",
  /** Taking calls: heartbeat, pending and maintenance loops run. */
  started: "started",
  /** `stop()` is draining in-flight calls and their receipts. */
  stopping: "stopping",
  /** Stopped by `stop()`; the journal is closed. */
  stopped: "stopped",
  /** Failed for good (refused access, fenced, a loop threw) and stopped itself; `failure` says why. */
  failed: "failed",
} as const;

/** One runner state. */
export type RunnerState = keyof typeof RUNNER_STATES;

/** The states each state may move to. */
export const RUNNER_TRANSITIONS = {
  created: ["starting", "stopping"],
  starting: ["started", "stopping", "failed"],
  started: ["stopping", "failed"],
  stopping: ["stopped"],
  stopped: [],
  failed: [],
} as const satisfies Record<RunnerState, readonly RunnerState[]>;

/** True when a runner may move from `from` to `to`. */
export function isRunnerEdge(from: RunnerState, to: RunnerState): boolean {
  return (RUNNER_TRANSITIONS[from] as readonly RunnerState[]).includes(to);
}
