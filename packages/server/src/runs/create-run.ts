/**
 * Creating a run: in one transaction the run is stored `queued` with its input as the first history
 * item, and its first model turn starts at once: the scripted model answers synchronously; an HTTP
 * provider's turn is queued for the run driver (the run answers `running`). Executors of the new calls,
 * and the driver, are woken after the commit (after-commit effects, docs/storage.md). The run's limits and deadline
 * are fixed here (docs/runs.md#limits).
 */

import { compact, type JsonValue } from "@toolhost/protocol";
import { newId } from "../ids.js";
import type { RunRecord, SessionRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { inputItem } from "./history-items.js";
import { runModelTurns } from "./model-turns.js";
import { appendHistory, emitRunEvents, runStatusEvent } from "./run-events.js";
import type { RunLimits } from "./run-limits.js";

/** Prefix of server-made run IDs. */
export const RUN_ID_PREFIX = "run";

/** The new run as stored after its first turns. */
export interface CreatedRun {
  run: RunRecord;
}

/** Creates a run of `session` from `input` (lossless) with `limits` (`runLimitsOf`) and runs its first model turn. */
export async function createRun(
  storage: Storage,
  session: SessionRecord,
  input: JsonValue,
  limits: RunLimits,
  nowMs: number,
): Promise<CreatedRun> {
  const item = inputItem(input);
  const queued: RunRecord = {
    run_id: newId(RUN_ID_PREFIX, nowMs),
    session_id: session.session_id,
    agent_id: session.agent_id,
    agent_version: session.agent_version,
    subject: session.subject,
    status: "queued",
    input_json: compact(input),
    turn: 0,
    output: null,
    error_json: null,
    history_length: 0,
    created_at_ms: nowMs,
    updated_at_ms: nowMs,
    ended_at_ms: null,
    max_turns: limits.maxTurns,
    max_tool_calls: limits.maxToolCalls,
    tool_call_count: 0,
    deadline_ms: nowMs + limits.runTimeoutMs,
  };
  return storage.transaction(async (stores) => {
    await stores.runs.insert(queued);
    // Its appends (the input, then the first turn's) go in as one statement at the commit.
    stores.history.lengthKnown(queued.run_id, 0);
    await emitRunEvents(stores, queued.run_id, [runStatusEvent(queued)], nowMs);
    const [seq = 0] = await appendHistory(stores, queued.run_id, [item], nowMs);
    // The new run's whole history is the item just written: the turn need not read it back.
    const history = [{ run_id: queued.run_id, seq, item_json: item, created_at_ms: nowMs }];
    const turns = await runModelTurns(stores, { ...queued, history_length: 1 }, nowMs, { history });
    return { run: turns.run };
  });
}
