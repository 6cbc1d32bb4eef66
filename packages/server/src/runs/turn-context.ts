/**
 * What a model turn reads before its request (the same for the scripted model inside a transaction
 * and for the run driver outside one): the run's agent version, tools and model, its whole history,
 * and the window's limits.
 */

import type { ToolDefinition } from "@toolhost/protocol";
import type { WindowLimits } from "../models/context-window.js";
import { SUMMARY_MAX_TOKENS } from "../models/model-answer.js";
import type { AgentVersionRecord, HistoryItemRecord, RunRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { maxOutputTokensOf, type RunModel, readRunModel } from "./run-model.js";
import { loadRunTools } from "./run-tools.js";

/** What a turn needs to build its request. */
export interface TurnContext {
  readonly version: AgentVersionRecord;
  readonly tools: ToolDefinition[];
  readonly model: RunModel;
  /** Every history item, oldest first. */
  readonly items: HistoryItemRecord[];
  readonly limits: WindowLimits;
}

/**
 * Every item of the run's history, oldest first. Only what was appended since this process last read
 * the run comes from the database (`HistoryStore.items`): stored items never change.
 */
export function loadHistory(stores: Stores, runId: string): Promise<HistoryItemRecord[]> {
  return stores.history.items(runId);
}

/** The window limits of `version` with `model`. */
export function limitsOf(version: AgentVersionRecord, model: RunModel): WindowLimits {
  const maxOutputTokens = maxOutputTokensOf(model);
  return {
    maxContextTokens: version.max_context_tokens,
    maxOutputTokens,
    summaryTokens: Math.min(maxOutputTokens === 0 ? SUMMARY_MAX_TOKENS : maxOutputTokens, SUMMARY_MAX_TOKENS),
  };
}

/**
 * Loads what turn of `run` needs; `history`, when given, is the run's whole history as the caller
 * just wrote it (a new run's input item), which spares reading it back.
 */
export async function loadTurnContext(
  stores: Stores,
  run: RunRecord,
  history?: HistoryItemRecord[],
): Promise<TurnContext> {
  const { version, tools } = await loadRunTools(stores, run.agent_version);
  const model = readRunModel(version.model_json);
  const items = history ?? (await loadHistory(stores, run.run_id));
  return { version, tools, model, items, limits: limitsOf(version, model) };
}
