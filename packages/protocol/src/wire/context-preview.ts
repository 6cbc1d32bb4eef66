/** The wire schema of a context preview (docs/projection.md): what the model sees of one tool result, with its sizes. */

import { type Static, Type } from "typebox";
import { RESULT_CONTEXT_BYTES } from "../projection/budget.js";
import { WireObject } from "./common.js";

const BYTES = "Bytes of compact UTF-8 JSON";

/** `{max_result_context_bytes, original_bytes, retained_bytes, truncated, result}`, in this key order. */
export const ContextPreview = WireObject("What the model sees of one tool result, and how it was cut.", {
  max_result_context_bytes: Type.Integer({
    description: "The tool's budget the result was projected to.",
    minimum: RESULT_CONTEXT_BYTES.min,
    maximum: RESULT_CONTEXT_BYTES.max,
  }),
  original_bytes: Type.Integer({ description: `${BYTES} of the full result.`, minimum: 0 }),
  retained_bytes: Type.Integer({ description: `${BYTES} of \`result\` (what the model sees).`, minimum: 0 }),
  truncated: Type.Boolean({ description: "True when `result` is a cut of the original." }),
  result: Type.Unknown({
    description:
      "What the model sees: the result itself when it fits, else `{truncation, preserved_fields, preview}` " +
      "(multimodal: text blocks cut in place).",
  }),
});

/** A context preview. */
export type ContextPreview = Static<typeof ContextPreview>;
