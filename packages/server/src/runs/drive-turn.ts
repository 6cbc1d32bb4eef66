/**
 * One model turn of an HTTP provider, made by the run driver while it holds the turn's lease, with
 * no transaction open during the request:
 *
 * 1. read the run, its history and the calibration; build the conversation and check the window;
 * 2. when it does not fit, ask the same model for a summary of the oldest blocks and append a
 *    `compaction` item (in a transaction that checks the lease), then start over;
 * 3. send the turn's request; a context-length refusal compacts once (forced), then fails the run
 *    with `context_window_exceeded`; another failure (retries spent) fails it with `model_error`;
 * 4. apply the answer in one transaction that removes the queued turn only while this driver still
 *    holds it — so an answer that arrives after another instance took the turn over is dropped, and
 *    no tool call is ever created twice — records the request, calibrates, and records the decision.
 */

import { type ModelConnections, utf8Length } from "@toolhost/protocol";
import type { Clock } from "../clock.js";
import { anthropicBody } from "../models/anthropic-messages.js";
import { fitsWindow } from "../models/context-window.js";
import { type Conversation, conversationBefore } from "../models/conversation.js";
import { ModelRequestError, type ProviderAnswer, SUMMARY_INSTRUCTION } from "../models/model-answer.js";
import type { ModelTurn, RunFailure } from "../models/model-turn.js";
import { openAiBody, type RenderOptions } from "../models/openai-chat.js";
import {
  type NamedConnection,
  type ProviderBody,
  type ProviderCallOptions,
  sendProviderRequest,
} from "../models/provider-client.js";
import { conversationSize, totalFeatures } from "../models/request-size.js";
import { addTextFeatures, calibratedWeights, estimateTokens } from "../models/token-estimate.js";
import { toolNameMap } from "../models/tool-names.js";
import { inSpan } from "../observability/request-tracing.js";
import type { ModelTurnRecord, RunRecord } from "../storage/records.js";
import type { Storage, Stores } from "../storage/storage.js";
import { applyTurn, failRun } from "./apply-turn.js";
import { MODEL_ERROR } from "./decided-turn.js";
import { compactionItem } from "./history-items.js";
import { CONTEXT_WINDOW_EXCEEDED, MAX_COMPACTIONS_PER_TURN, runModelTurns } from "./model-turns.js";
import { type MadeRequest, recordModelRequest } from "./record-model-request.js";
import { appendHistory } from "./run-events.js";
import { connectionOf, identityOf, type ModelIdentity } from "./run-model.js";
import { RunMover } from "./run-mover.js";
import { loadTurnContext, type TurnContext } from "./turn-context.js";
import { compactedThroughSeq, windowRequest } from "./turn-window.js";

/** What a turn reports as it goes (the server's metrics and domain events). */
export interface TurnObserver {
  /** The run's oldest turns were summarised. */
  compacted(runId: string, turn: number): void;
  /**
   * A request was answered over `connection`: its input tokens as estimated, and as the provider
   * reported (null: not reported). The model name is not passed: it is tenant text (metrics must not take it).
   */
  answered(provider: string, connection: string, estimatedTokens: number, actualTokens: number | null): void;
}

/** What driving a turn needs. */
export interface DriveDeps {
  /** Told of compactions and of each answered request's estimated and actual input tokens (metrics, logs). */
  readonly observer?: TurnObserver;
  readonly storage: Storage;
  readonly clock: Clock;
  /** Retries, timeout, the environment and the log of the provider requests. */
  readonly call: Omit<ProviderCallOptions, "signal">;
  /** The operator's model connections. */
  readonly connections: ModelConnections;
  /** How long a lease lasts when renewed (a compaction renews it). */
  readonly leaseMs: number;
}

/** What the turn did. */
export interface DriveOutcome {
  /** False when the lease was lost or the run had moved on: nothing was applied. */
  readonly applied: boolean;
}

/** The turn's lease was lost (another instance took it over): nothing is applied. */
class LeaseLost extends Error {}

const NOTHING: DriveOutcome = { applied: false };

/** Is `run` still waiting for turn `lease.turn`? */
function awaits(run: RunRecord | undefined, lease: ModelTurnRecord): run is RunRecord {
  return run !== undefined && run.status === "running" && run.turn === lease.turn + 1;
}

/** A request sent: the answer, or the failure, and what to record of it. */
interface Sent {
  answer: ProviderAnswer | undefined;
  failure: ModelRequestError["failure"] | undefined;
  made: Omit<MadeRequest, "usage" | "error">;
}

/** Makes the queued turn `lease` while `owner` holds it; `signal` aborts it (the server stops, the lease was lost). */
export async function driveTurn(
  deps: DriveDeps,
  lease: ModelTurnRecord,
  owner: string,
  signal: AbortSignal,
): Promise<DriveOutcome> {
  const { storage } = deps;
  let force = false;
  let compacted = false;
  for (let round = 0; ; round++) {
    const run = await storage.runs.get(lease.run_id, "*");
    if (!awaits(run, lease)) {
      await storage.modelTurns.complete(lease.run_id, owner);
      return NOTHING;
    }
    const context = await loadTurnContext(storage, run);
    const { model } = context;
    if (model.kind === "unreadable") return finish(deps, lease, owner, model.failure, undefined);
    if (model.kind !== "provider") throw new Error(`run ${run.run_id} queued a turn of the scripted model`);
    const resolved = connectionOf(model.settings, deps.connections);
    if ("failure" in resolved) return finish(deps, lease, owner, resolved.failure, undefined);
    const { connection } = resolved;
    const identity = identityOf(model);
    const calibration = await storage.tokenCalibrations.get(identity.provider, identity.model);
    const weights = calibratedWeights(calibration?.observations ?? 0, calibration?.sums);
    const request = windowRequest(context, weights, force);
    const { decision } = request;
    if (decision.kind === "exceeded" || (decision.kind === "compact" && round >= MAX_COMPACTIONS_PER_TURN)) {
      const message =
        decision.kind === "exceeded" ? decision.message : `the request still does not fit after ${round} compactions`;
      return finish(deps, lease, owner, { code: CONTEXT_WINDOW_EXCEEDED, message }, undefined);
    }
    if (decision.kind === "compact") {
      const summarised = conversationBefore(request.conversation, decision.cut);
      const features = addTextFeatures(
        totalFeatures(conversationSize(summarised, context.tools)),
        SUMMARY_INSTRUCTION,
        1,
      );
      const estimated = estimateTokens(weights, features);
      if (!fitsWindow(estimated, { ...context.limits, maxOutputTokens: context.limits.summaryTokens })) {
        const message = `the oldest turns need about ${estimated} tokens to be summarised, over max_context_tokens ${context.limits.maxContextTokens}`;
        return finish(deps, lease, owner, { code: CONTEXT_WINDOW_EXCEEDED, message }, undefined);
      }
      const sent = await send(
        deps,
        context,
        connection,
        summarised,
        { purpose: "summary", maxOutputTokens: context.limits.summaryTokens },
        {
          runId: run.run_id,
          turn: lease.turn,
          purpose: "summary",
          identity,
          features,
          estimatedTokens: estimated,
          compacted: false,
        },
        signal,
      );
      const text = sent.answer?.kind === "message" ? sent.answer.text.trim() : "";
      if (sent.failure !== undefined || text === "") {
        const failure = sent.failure ?? { kind: "model_error" as const, message: "the model answered no summary" };
        return finish(deps, lease, owner, runFailureOf(failure), sent);
      }
      const through = compactedThroughSeq(request.conversation, decision.cut, context.items);
      const kept = await storage.transaction(async (stores) => {
        const locked = await stores.runs.getForUpdate(lease.run_id);
        const now = deps.clock.nowMs();
        if (!awaits(locked, lease) || !(await stores.modelTurns.renew(lease.run_id, owner, now, now + deps.leaseMs))) {
          return false;
        }
        await recordModelRequest(stores, { ...sent.made, usage: usageOf(sent.answer), error: null }, now);
        await appendHistory(stores, lease.run_id, [compactionItem(text, through)], now);
        return true;
      });
      if (!kept) return NOTHING;
      deps.observer?.compacted(lease.run_id, lease.turn);
      compacted = true;
      force = false;
      continue;
    }
    const sent = await send(
      deps,
      context,
      connection,
      request.conversation,
      { purpose: "turn", maxOutputTokens: context.limits.maxOutputTokens },
      {
        runId: run.run_id,
        turn: lease.turn,
        purpose: "turn",
        identity,
        features: request.features,
        estimatedTokens: decision.estimated_tokens,
        compacted,
      },
      signal,
    );
    if (sent.failure?.kind === "context_length" && !force) {
      // The provider's window is smaller than the estimate said: compact once, whatever the estimate.
      if (!(await recordFailedRequest(deps, lease, owner, sent))) return NOTHING;
      force = true;
      continue;
    }
    if (sent.failure !== undefined || sent.answer === undefined) {
      return finish(
        deps,
        lease,
        owner,
        runFailureOf(sent.failure ?? { kind: "model_error", message: "no answer" }),
        sent,
      );
    }
    return apply(deps, lease, owner, sent, decisionOf(sent.answer), context);
  }
}

function usageOf(answer: ProviderAnswer | undefined): MadeRequest["usage"] {
  return answer?.usage ?? null;
}

function runFailureOf(failure: ModelRequestError["failure"]): RunFailure {
  return { code: failure.kind === "context_length" ? CONTEXT_WINDOW_EXCEEDED : MODEL_ERROR, message: failure.message };
}

function decisionOf(answer: ProviderAnswer): ModelTurn {
  return answer.kind === "message"
    ? { kind: "message", text: answer.text }
    : { kind: "tool_calls", calls: answer.calls };
}

/** Renders and sends one request of `context`'s provider. */
async function send(
  deps: DriveDeps,
  context: TurnContext,
  connection: NamedConnection,
  conversation: Conversation,
  options: RenderOptions,
  made: Omit<MadeRequest, "usage" | "error" | "requestBytes" | "latencyMs" | "sentAtMs"> & { identity: ModelIdentity },
  signal: AbortSignal,
): Promise<Sent> {
  if (context.model.kind !== "provider") throw new Error("only providers are sent requests");
  const { settings } = context.model;
  const names = toolNameMap(context.tools.map((tool) => tool.name));
  const body: ProviderBody =
    settings.provider === "openai"
      ? { provider: "openai", body: openAiBody(settings, conversation, context.tools, names, options) }
      : { provider: "anthropic", body: anthropicBody(settings, conversation, context.tools, names, options) };
  const sentAtMs = deps.clock.nowMs();
  const started = performance.now();
  const record = { ...made, requestBytes: utf8Length(JSON.stringify(body.body)), sentAtMs };
  try {
    const attributes = {
      "toolhost.run_id": made.runId,
      "toolhost.purpose": made.purpose,
      "gen_ai.system": settings.provider,
      "toolhost.model_connection": connection.id,
    };
    const answer = await inSpan("toolhost.model_request", attributes, () =>
      sendProviderRequest(connection, body, names, { ...deps.call, signal }),
    );
    const { identity } = made;
    deps.observer?.answered(
      identity.provider,
      identity.connection,
      made.estimatedTokens,
      answer.usage?.input_tokens ?? null,
    );
    return { answer, failure: undefined, made: { ...record, latencyMs: performance.now() - started } };
  } catch (error) {
    if (!(error instanceof ModelRequestError) || signal.aborted) throw error;
    return { answer: undefined, failure: error.failure, made: { ...record, latencyMs: performance.now() - started } };
  }
}

/** Records a failed request the turn goes on from (the context-length refusal before a forced compaction). */
async function recordFailedRequest(
  deps: DriveDeps,
  lease: ModelTurnRecord,
  owner: string,
  sent: Sent,
): Promise<boolean> {
  return deps.storage.transaction(async (stores) => {
    const locked = await stores.runs.getForUpdate(lease.run_id);
    const now = deps.clock.nowMs();
    if (!awaits(locked, lease) || !(await stores.modelTurns.renew(lease.run_id, owner, now, now + deps.leaseMs))) {
      return false;
    }
    await recordModelRequest(stores, { ...sent.made, usage: null, error: runFailureOf(failureOf(sent)) }, now);
    return true;
  });
}

function failureOf(sent: Sent): ModelRequestError["failure"] {
  return sent.failure ?? { kind: "model_error", message: "no answer" };
}

/** In one transaction that takes the turn off the queue (only while `owner` holds it): `work`. */
async function whileHeld(
  deps: DriveDeps,
  lease: ModelTurnRecord,
  owner: string,
  work: (stores: Stores, run: RunRecord, nowMs: number) => Promise<DriveOutcome>,
): Promise<DriveOutcome> {
  try {
    return await deps.storage.transaction(async (stores) => {
      const run = await stores.runs.getForUpdate(lease.run_id);
      if (!(await stores.modelTurns.complete(lease.run_id, owner))) throw new LeaseLost();
      // A run cancelled (or otherwise ended) meanwhile keeps its state; the answer is dropped.
      if (!awaits(run, lease)) return NOTHING;
      return work(stores, run, deps.clock.nowMs());
    });
  } catch (error) {
    if (error instanceof LeaseLost) return NOTHING;
    throw error;
  }
}

/** Fails the run with `error` (recording the request that failed, if any). */
function finish(
  deps: DriveDeps,
  lease: ModelTurnRecord,
  owner: string,
  error: RunFailure,
  sent: Sent | undefined,
): Promise<DriveOutcome> {
  return whileHeld(deps, lease, owner, async (stores, run, nowMs) => {
    if (sent !== undefined)
      await recordModelRequest(stores, { ...sent.made, usage: usageOf(sent.answer), error }, nowMs);
    await failRun(new RunMover(stores, run, nowMs), error, nowMs);
    return { applied: true };
  });
}

/** Records the request and applies `decision`; queues the next turn when every call was refused. */
function apply(
  deps: DriveDeps,
  lease: ModelTurnRecord,
  owner: string,
  sent: Sent,
  decision: ModelTurn,
  context: TurnContext,
): Promise<DriveOutcome> {
  return whileHeld(deps, lease, owner, async (stores, run, nowMs) => {
    await recordModelRequest(stores, { ...sent.made, usage: usageOf(sent.answer), error: null }, nowMs);
    const applied = await applyTurn(
      stores,
      new RunMover(stores, run, nowMs),
      lease.turn,
      decision,
      context.tools,
      nowMs,
    );
    if (applied.next) await runModelTurns(stores, applied.run, nowMs);
    return { applied: true };
  });
}
