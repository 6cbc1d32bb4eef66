/** Model requests on record as the wire shows them (`GET /v1/runs/{run_id}/model-requests`). */

import type { ModelRequest } from "@toolhost/protocol/wire";
import { isoTime } from "../http/wire-time.js";
import type { ModelRequestRecord } from "../storage/records.js";

/** The wire form of a recorded model request (members in the schema's order). */
export function modelRequestOf(request: ModelRequestRecord): ModelRequest {
  return {
    request_id: request.request_id,
    turn: request.turn,
    purpose: request.purpose,
    provider: request.provider,
    model: request.model,
    request_bytes: request.request_bytes,
    estimated_input_tokens: request.estimated_input_tokens,
    actual_input_tokens: request.actual_input_tokens,
    output_tokens: request.output_tokens,
    compacted: request.compacted,
    latency_ms: request.latency_ms,
    ...(request.error_json === null
      ? {}
      : { error: JSON.parse(request.error_json) as NonNullable<ModelRequest["error"]> }),
    created_at: isoTime(request.created_at_ms),
  };
}
