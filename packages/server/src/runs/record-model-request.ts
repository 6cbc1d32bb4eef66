/**
 * Model requests on record (inside the transaction that applies their answer, or fails the run): the
 * request row, its `model.request` event, and — when the provider reported usage — one more
 * observation for the token estimator's calibration of that provider and model.
 */

import { newId } from "../ids.js";
import type { ModelUsage } from "../models/model-answer.js";
import type { RunFailure } from "../models/model-turn.js";
import { observationTerms, type TokenFeatures } from "../models/token-estimate.js";
import type { ModelRequestPurpose, ModelRequestRecord } from "../storage/records.js";
import type { Stores } from "../storage/storage.js";
import { emitRunEvents, modelRequestEvent } from "./run-events.js";
import type { ModelIdentity } from "./run-model.js";

/** Prefix of model request IDs. */
export const MODEL_REQUEST_ID_PREFIX = "mrq";

/** A request made, to record. */
export interface MadeRequest {
  readonly runId: string;
  readonly turn: number;
  readonly purpose: ModelRequestPurpose;
  readonly identity: ModelIdentity;
  readonly requestBytes: number;
  readonly features: Readonly<TokenFeatures>;
  readonly estimatedTokens: number;
  readonly usage: ModelUsage | null;
  readonly compacted: boolean;
  readonly latencyMs: number;
  readonly error: RunFailure | null;
  /** When it was sent. */
  readonly sentAtMs: number;
}

/** Records `made` (and calibrates with its usage); answers the stored record. */
export async function recordModelRequest(
  stores: Stores,
  made: MadeRequest,
  nowMs: number,
): Promise<ModelRequestRecord> {
  const record: ModelRequestRecord = {
    request_id: newId(MODEL_REQUEST_ID_PREFIX, made.sentAtMs),
    run_id: made.runId,
    turn: made.turn,
    purpose: made.purpose,
    provider: made.identity.provider,
    model: made.identity.model,
    request_bytes: made.requestBytes,
    estimated_input_tokens: made.estimatedTokens,
    actual_input_tokens: made.usage?.input_tokens ?? null,
    output_tokens: made.usage?.output_tokens ?? null,
    compacted: made.compacted,
    latency_ms: Math.max(0, Math.round(made.latencyMs)),
    error_json: made.error === null ? null : JSON.stringify(made.error),
    created_at_ms: made.sentAtMs,
  };
  await stores.modelRequests.insert(record);
  await emitRunEvents(stores, made.runId, [modelRequestEvent(record)], nowMs);
  if (made.usage !== null && made.usage.input_tokens > 0) {
    await stores.tokenCalibrations.add(
      made.identity.provider,
      made.identity.model,
      observationTerms(made.features, made.usage.input_tokens),
      nowMs,
    );
  }
  return record;
}
