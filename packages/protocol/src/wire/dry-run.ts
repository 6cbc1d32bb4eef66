/**
 * Wire schemas of `POST /v1/tools/dry-run` (docs/dry-run.md): a tool call's arguments and mock receipts are
 * checked against a published agent version's tool, and the answer shows the context preview the
 * model would see — without creating a run, calling a model or reaching an executor.
 */

import { type Static, Type } from "typebox";
import { RECEIPT_KINDS } from "../calls/receipt-kind.js";
import { TOOL_NAME_PATTERN } from "../config/tool-definition.js";
import { TOOL_EFFECTS } from "../config/tool-effect.js";
import { RESULT_CONTEXT_BYTES } from "../projection/budget.js";
import { Id, Nullable, WireObject } from "./common.js";
import { ContextPreview } from "./context-preview.js";

/** Most mock receipts one dry-run checks. */
export const MOCK_RECEIPTS_MAX = 100;

/** `POST /v1/tools/dry-run` body. Mock receipts are checked one by one and reported, never refused whole. */
export const DryRunRequest = WireObject("A tool call to check without executing it.", {
  agent_version: Id("A published agent version ID; its toolset version holds the tool."),
  tool_name: Type.String({
    description: "The tool's name in that toolset version.",
    pattern: TOOL_NAME_PATTERN.source,
  }),
  arguments: Type.Optional(
    Type.Unknown({ description: "The arguments to check against the tool's `input_schema` (default `{}`)." }),
  ),
  mock_receipts: Type.Optional(
    Type.Array(
      Type.Unknown({
        description:
          "A receipt as an executor would send it: `{receipt_id, kind, result?, result_type?, error?, progress?}`.",
      }),
      { maxItems: MOCK_RECEIPTS_MAX, description: "Receipts to check, in order (default none)." },
    ),
  ),
});

/** `POST /v1/tools/dry-run` body. */
export type DryRunRequest = Static<typeof DryRunRequest>;

/** One reason a checked value is invalid. */
export const CheckProblem = WireObject("One reason a checked value is invalid.", {
  pointer: Type.String({ description: "JSON pointer into the checked value (the arguments, or the receipt)." }),
  message: Type.String({ description: "What is wrong; for people, not stable." }),
});

/** One reason a checked value is invalid. */
export type CheckProblem = Static<typeof CheckProblem>;

const problems = Type.Array(CheckProblem, { description: "Why it is invalid; empty when valid." });

/** The dry-run answer (200), also when the arguments or receipts are invalid. */
export const DryRunAnswer = WireObject("What a tool call would look like to the model; nothing was executed.", {
  tool: WireObject("The tool as the agent version pins it.", {
    name: Type.String({ description: "The tool's name." }),
    binding_id: Id("The executor binding that would run it."),
    effect: Type.Enum(Object.values(TOOL_EFFECTS), { description: "`read` or `write`." }),
    max_result_context_bytes: Type.Integer({
      description: "The tool's budget for results.",
      minimum: RESULT_CONTEXT_BYTES.min,
      maximum: RESULT_CONTEXT_BYTES.max,
    }),
  }),
  arguments: WireObject("The arguments checked against the tool's input schema.", {
    valid: Type.Boolean({ description: "True when `errors` is empty." }),
    errors: problems,
  }),
  receipts: Type.Array(
    WireObject("One mock receipt, checked.", {
      receipt_id: Nullable(Type.String({ description: "As sent." }), "The receipt's ID; null when it sent none."),
      kind: Nullable(
        Type.Enum(Object.values(RECEIPT_KINDS), { description: "The receipt kind." }),
        "The receipt kind; null when missing or unknown.",
      ),
      valid: Type.Boolean({ description: "True when `errors` is empty." }),
      errors: problems,
    }),
    { description: "Each mock receipt, in the order sent." },
  ),
  context_preview: Nullable(
    ContextPreview,
    "What the model would see of the first valid `completed` mock receipt, byte for byte as the run's history " +
      "would store it; null when there is none.",
  ),
  execution_verified: Type.Literal(false, {
    description: "Always false: a dry-run never proves that the real business execution works.",
  }),
});

/** The dry-run answer. */
export type DryRunAnswer = Static<typeof DryRunAnswer>;
