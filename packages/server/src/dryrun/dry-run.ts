/**
 * The dry-run decision (pure, docs/dry-run.md): check a tool call's arguments against the tool's input schema
 * and each mock receipt, and show what the model would see of the first valid `completed` receipt —
 * `projectResult` with the tool's budget, the function a run uses when the receipt first enters its
 * history. Nothing is executed, so `execution_verified` is always false.
 */

import {
  type ContextPreview,
  compact,
  type PlainJsonObject,
  type ToolDefinition,
  validateArguments,
} from "@toolhost/protocol";
import type { CheckProblem } from "@toolhost/protocol/wire";
import type { DryRunInput } from "./body-sections.js";
import { type CheckedReceipt, checkMockReceipt } from "./mock-receipt.js";

/** The dry-run answer (the `DryRunAnswer` wire shape, with the preview's result kept lossless). */
export interface DryRunOutcome {
  tool: Pick<ToolDefinition, "name" | "binding_id" | "effect" | "max_result_context_bytes">;
  arguments: { valid: boolean; errors: CheckProblem[] };
  receipts: CheckedReceipt[];
  context_preview: ContextPreview | null;
  execution_verified: false;
}

/** Checks `input` against `tool`. Arguments the body left out count as `{}`. */
export function dryRun(tool: ToolDefinition, input: DryRunInput): DryRunOutcome {
  const budget = tool.max_result_context_bytes;
  const receipts = input.mockReceipts.map((part) => checkMockReceipt(part, budget));
  return {
    tool: {
      name: tool.name,
      binding_id: tool.binding_id,
      effect: tool.effect,
      max_result_context_bytes: budget,
    },
    arguments: checkArguments(tool, input.arguments),
    receipts,
    context_preview: receipts.find((receipt) => receipt.preview !== undefined)?.preview ?? null,
    execution_verified: false,
  };
}

function checkArguments(tool: ToolDefinition, part: DryRunInput["arguments"]): DryRunOutcome["arguments"] {
  if (part === undefined) return validateArguments(tool.input_schema, {});
  if (!part.ok) {
    const { error } = part;
    return { valid: false, errors: [{ pointer: error.pointer ?? "", message: `${error.code}: ${error.message}` }] };
  }
  return validateArguments(tool.input_schema, part.value);
}

/**
 * The answer's exact text: the protocol's compact writer, so the preview's `result` is written byte for
 * byte as the run's history stores it (big integers, float spellings and key order as the sender's).
 */
export function dryRunAnswerText(outcome: DryRunOutcome): string {
  const answer: PlainJsonObject = {
    tool: { ...outcome.tool },
    arguments: { valid: outcome.arguments.valid, errors: outcome.arguments.errors.map(problemJson) },
    receipts: outcome.receipts.map((receipt) => ({
      receipt_id: receipt.receipt_id,
      kind: receipt.kind,
      valid: receipt.valid,
      errors: receipt.errors.map(problemJson),
    })),
    context_preview: outcome.context_preview === null ? null : previewJson(outcome.context_preview),
    execution_verified: false,
  };
  return compact(answer);
}

function problemJson(problem: CheckProblem): PlainJsonObject {
  return { pointer: problem.pointer, message: problem.message };
}

/** The preview as JSON, keys in the order of docs/projection.md. */
function previewJson(preview: ContextPreview): PlainJsonObject {
  return {
    max_result_context_bytes: preview.max_result_context_bytes,
    original_bytes: preview.original_bytes,
    retained_bytes: preview.retained_bytes,
    truncated: preview.truncated,
    result: preview.result,
  };
}
