/**
 * Every periodic sweep the server runs, in order, on the one ticker (`runtime/sweeper.ts`). Areas append
 * theirs here: the claims area its accept-window and call-deadline sweeps, the runs area its run
 * deadline sweep, the turn engine's recovery sweep and its retention; the runtime the planner
 * statistics' upkeep.
 */

import { acceptWindowSweep, callDeadlineSweep } from "../calls/call-deadline-sweeps.js";
import { executorLeaseSweep } from "../executors/lease-sweep.js";
import { runDeadlineSweep } from "../runs/expire-runs.js";
import { runRetentionSweep } from "../runs/run-retention.js";
import { turnEngineSweep } from "../runs/turn-engine.js";
import { plannerStatisticsSweep } from "../runtime/planner-statistics-sweep.js";
import type { Sweep } from "../runtime/sweeper.js";
import type { AppContext } from "./app-context.js";

/** The sweeps, in the order each tick runs them. */
export const SWEEPS: readonly Sweep<AppContext>[] = [
  executorLeaseSweep,
  acceptWindowSweep,
  callDeadlineSweep,
  runDeadlineSweep,
  turnEngineSweep,
  runRetentionSweep,
  plannerStatisticsSweep,
];
