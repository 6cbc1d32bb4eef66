/**
 * Starting model turns (inside the caller's transaction, with the run locked). A turn of the
 * built-in scripted model runs right here: its window is checked (compacting deterministically when
 * the history outgrows it), its request recorded, its step played and recorded (`apply-turn.ts`); a
 * turn whose calls were all refused has nothing to wait for, so the next one follows. A turn of an
 * HTTP provider is only started here — the run becomes `running` and its turn is queued in the
 * database — and the run driver makes the request outside any transaction (`run-driver.ts`). A run
 * that has made its `max_turns` turns fails `run_limit_exceeded` instead of starting another
 * (`run-limits.ts`). What must wake after the commit is registered with it (`stores.afterCommit`): the
 * executors of the new pending calls, and for a queued provider turn the run, so the driver asks now.
 */

import type { RunFailure } from "../models/model-turn.js";
import { PRIOR_WEIGHTS, type TokenFeatures } from "../models/token-estimate.js";
import { inSpan } from "../observability/request-tracing.js";
import type { HistoryItemRecord, RunRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { applyTurn, failRun } from "./apply-turn.js";
import { decided } from "./decided-turn.js";
import { compactionItem } from "./history-items.js";
import { recordModelRequest } from "./record-model-request.js";
import { appendHistory } from "./run-events.js";
import { turnLimitFailure } from "./run-limits.js";
import { identityOf } from "./run-model.js";
import { RunMover } from "./run-mover.js";
import { scriptedSummary } from "./scripted-summary.js";
import { scriptedTurn } from "./scripted-turn.js";
import { loadHistory, loadTurnContext, type TurnContext } from "./turn-context.js";
import { compactedThroughSeq, textBytesOf, windowRequest } from "./turn-window.js";

export { CALL_ID_PREFIX } from "./apply-turn.js";

/** The run error when a request cannot fit the window even after compaction. */
export const CONTEXT_WINDOW_EXCEEDED = "context_window_exceeded";

/** Most compactions one turn makes before giving up. */
export const MAX_COMPACTIONS_PER_TURN = 3;

/** Where the turns left the run. */
export interface TurnsOutcome {
  /** The run as the turns left it (stored). */
  run: RunRecord;
}

/** Where the turns start from. */
export interface TurnsStart {
  /** The run's whole history when the caller knows it (it just wrote all of it), else it is read. */
  readonly history?: HistoryItemRecord[];
  /** The turn engine found the run ready: the turns clear its ready mark with their first save. */
  readonly ready?: boolean;
}

/**
 * Runs model turns from `run` (locked, `queued` or `waiting_for_tools` with every call of its turn
 * settled) until the run waits for pending calls, waits for the driver, or ends.
 */
export async function runModelTurns(
  stores: Stores,
  run: RunRecord,
  nowMs: number,
  start: TurnsStart = {},
): Promise<TurnsOutcome> {
  let context = await loadTurnContext(stores, run, start.history);
  const mover = new RunMover(stores, run, nowMs, start.ready === true);
  const { model } = context;
  // A run that made its max_turns fails instead of starting another (docs/runs.md#limits).
  const spent = turnLimitFailure(mover.run, mover.turn);
  if (spent !== undefined) return { run: await failRun(mover, spent, nowMs) };
  if (model.kind === "provider") {
    const index = mover.startTurn();
    const saved = await mover.save();
    await stores.modelTurns.enqueue(run.run_id, index, nowMs);
    // The driver asks the provider as soon as the queued turn is committed (no wait for its poll).
    stores.afterCommit.modelTurnsQueued([run.run_id]);
    return { run: saved };
  }
  if (model.kind === "unreadable") {
    mover.startTurn();
    return { run: await failRun(mover, model.failure, nowMs) };
  }
  for (;;) {
    // Checked again before each follow-up turn (every call of the last one was refused).
    const limit = turnLimitFailure(mover.run, mover.turn);
    if (limit !== undefined) return { run: await failRun(mover, limit, nowMs) };
    const index = mover.startTurn();
    // Each scripted turn is a `toolhost.run_turn` span, as the run driver's are: its calls' spans are its children.
    const attributes = { "toolhost.run_id": run.run_id, "toolhost.turn": index };
    const step = await inSpan("toolhost.run_turn", attributes, () =>
      scriptedStep(stores, mover, index, context, nowMs),
    );
    if (step.kind === "done") return step.outcome;
    // Every call was refused: their results are in the history already, the model goes on.
    context = { ...step.context, items: await loadHistory(stores, run.run_id) };
  }
}

/** What one scripted turn left: the run's outcome, or (every call refused) the next turn to make. */
type ScriptedStep = { kind: "done"; outcome: TurnsOutcome } | { kind: "next"; context: TurnContext };

/** One scripted turn `index`: the window, the recorded request, the step played and recorded. */
async function scriptedStep(
  stores: Stores,
  mover: RunMover,
  index: number,
  start: TurnContext,
  nowMs: number,
): Promise<ScriptedStep> {
  const runId = mover.run.run_id;
  const { model } = start;
  if (model.kind !== "scripted") throw new Error("a scripted step needs the scripted model");
  const windowed = await scriptedWindow(stores, runId, start, nowMs);
  if (windowed.kind === "failed") {
    const failed = await failRun(mover, windowed.failure, nowMs);
    return { kind: "done", outcome: { run: failed } };
  }
  const context = windowed.context;
  await recordModelRequest(
    stores,
    {
      runId,
      turn: index,
      purpose: "turn",
      identity: identityOf(model),
      requestBytes: textBytesOf(windowed.features),
      features: windowed.features,
      estimatedTokens: windowed.estimated,
      usage: null,
      compacted: windowed.compacted,
      latencyMs: 0,
      error: null,
      sentAtMs: nowMs,
    },
    nowMs,
  );
  const decision = await decided(() => scriptedTurn(model.scripted, index));
  const applied = await applyTurn(stores, mover, index, decision, context.tools, nowMs);
  if (!applied.next) {
    return { kind: "done", outcome: { run: applied.run } };
  }
  return { kind: "next", context };
}

/** The outcome of the scripted window step. */
type ScriptedWindow =
  | { kind: "failed"; failure: RunFailure }
  | { kind: "ready"; context: TurnContext; features: TokenFeatures; estimated: number; compacted: boolean };

/** The scripted model's window step: compacts (deterministically) until the request fits. */
async function scriptedWindow(
  stores: Stores,
  runId: string,
  start: TurnContext,
  nowMs: number,
): Promise<ScriptedWindow> {
  let context = start;
  let compacted = false;
  for (let round = 0; ; round++) {
    const request = windowRequest(context, PRIOR_WEIGHTS);
    const { decision } = request;
    if (decision.kind === "fits") {
      return { kind: "ready", context, features: request.features, estimated: decision.estimated_tokens, compacted };
    }
    if (decision.kind === "exceeded" || round >= MAX_COMPACTIONS_PER_TURN) {
      const message =
        decision.kind === "exceeded"
          ? decision.message
          : `the request still needs about ${decision.estimated_tokens} tokens after ${round} compactions`;
      return { kind: "failed", failure: { code: CONTEXT_WINDOW_EXCEEDED, message } };
    }
    const summary = scriptedSummary(request.conversation, decision.cut);
    const through = compactedThroughSeq(request.conversation, decision.cut, context.items);
    const item = compactionItem(summary, through);
    const [seq = -1] = await appendHistory(stores, runId, [item], nowMs);
    context = { ...context, items: [...context.items, { run_id: runId, seq, item_json: item, created_at_ms: nowMs }] };
    compacted = true;
  }
}
