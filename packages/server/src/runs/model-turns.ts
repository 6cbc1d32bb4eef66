/**
 * Running model turns (I/O around the pure decisions), inside the caller's transaction with the run
 * locked: each turn asks the model (`scriptedTurn`), records what it decided in the history and the
 * calls table, and moves the run through the run transition table. A turn whose calls were all
 * refused has nothing to wait for, so the next turn follows at once. The caller notifies executors of
 * the returned bindings after its commit.
 */

import { type RunEvent, type RunStatus, transitionRun } from "@toolhost/protocol";
import { newId } from "../ids.js";
import type { RunRecord } from "../storage/records.js";
import type { RunChange, Stores } from "../storage/storage.js";
import { messageItem } from "./history-items.js";
import type { ModelTurn } from "./model-turn.js";
import { planToolCallsYielding } from "./plan-tool-calls-yielding.js";
import { loadRunTools } from "./run-tools.js";
import { readScriptedModel, scriptedTurn } from "./scripted-turn.js";
import { turnRecords } from "./turn-records.js";

/** The run error when a turn's decision failed unexpectedly (stored data it cannot read, a bug). */
export const MODEL_ERROR = "model_error";

/** Prefix of server-made call IDs. */
export const CALL_ID_PREFIX = "call";

/** Where the turns left the run. */
export interface TurnsOutcome {
  /** The run as the turns left it (stored). */
  run: RunRecord;
  /** Bindings that got pending calls. */
  wokenBindingIds: string[];
}

/**
 * Runs model turns from `run` (locked, `queued` or `waiting_for_tools` with every call of its turn
 * settled) until the run waits for pending calls or ends.
 */
export async function runModelTurns(stores: Stores, run: RunRecord, nowMs: number): Promise<TurnsOutcome> {
  const { version, tools } = await loadRunTools(stores, run.agent_version);
  const model = await decided(() => readScriptedModel(version.model_json));
  let status = run.status;
  let turn = run.turn;
  const move = (event: RunEvent): RunStatus => {
    const transition = transitionRun(status, event);
    if (!transition.ok) throw new Error(`run ${run.run_id}: no ${event} from ${status}`);
    status = transition.to;
    return status;
  };
  const save = async (change: Omit<RunChange, "status" | "updated_at_ms">): Promise<RunRecord> => {
    const changed = await stores.runs.update(run.run_id, run.status, { status, turn, updated_at_ms: nowMs, ...change });
    // The caller holds the run's lock: a run that changed meanwhile is a bug, not a race to lose.
    if (changed === undefined) throw new Error(`run ${run.run_id} changed while locked`);
    return changed;
  };

  for (;;) {
    move("start_turn");
    const index = turn;
    turn += 1;
    const decision = "kind" in model ? model : await decided(() => scriptedTurn(model, index));
    const plan =
      decision.kind === "tool_calls"
        ? await decided(async () => {
            const planned = await planToolCallsYielding(decision.calls, tools);
            const callIds = planned.map(() => newId(CALL_ID_PREFIX, nowMs));
            return { kind: "calls" as const, records: turnRecords(run.run_id, index, planned, callIds, nowMs) };
          })
        : decision;
    if (plan.kind === "message") {
      await stores.history.append(run.run_id, [messageItem(plan.text)], nowMs);
      move("complete");
      const saved = await save({ output: plan.text, ended_at_ms: nowMs });
      return { run: saved, wokenBindingIds: [] };
    }
    if (plan.kind === "fail") {
      move("fail");
      const saved = await save({ error_json: JSON.stringify(plan.error), ended_at_ms: nowMs });
      return { run: saved, wokenBindingIds: [] };
    }
    const { records } = plan;
    await stores.calls.insertMany(records.calls);
    await stores.history.append(run.run_id, records.items, nowMs);
    move("await_tools");
    if (records.pendingBindingIds.length > 0) {
      const saved = await save({});
      return { run: saved, wokenBindingIds: records.pendingBindingIds };
    }
    // Every call was refused: their results are in the history already, the model goes on.
  }
}

/** A turn that fails the run. */
type FailedTurn = Extract<ModelTurn, { kind: "fail" }>;

/**
 * What `decide()` (pure, maybe yielding to the event loop) answers, or a failed turn when it throws. A decision that throws would throw again on
 * every retry — the receipt settling the turn's last call would be refused on every redelivery and
 * the run would wait forever — so the run fails with `model_error` instead. Storage errors are not
 * caught: they happen outside `decide`, and a retry may well succeed.
 */
async function decided<T extends object>(decide: () => T | Promise<T>): Promise<T | FailedTurn> {
  try {
    return await decide();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `the model turn could not be decided: ${reason}`.slice(0, MAX_FAILURE_MESSAGE_LENGTH);
    return { kind: "fail", error: { code: MODEL_ERROR, message } };
  }
}

/** Longest run error message kept from a failed decision. */
const MAX_FAILURE_MESSAGE_LENGTH = 500;
