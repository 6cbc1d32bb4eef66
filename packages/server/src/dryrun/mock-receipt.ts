/**
 * Checking one mock receipt of a dry-run (pure): its shape as an executor would send it,
 * `{receipt_id, kind, result?, result_type?, error?, progress?}`, by the rules of the receipts route
 * (`calls/receipt-body.ts`: `completed` carries its result, `failed` its error, each optional member
 * only on its kinds), and for a `completed` receipt that its result can be projected for the model (a
 * `multimodal` result must have the multimodal shape). Unlike the route, which stops at the first
 * problem, every problem is collected with its JSON pointer into the receipt; nothing is thrown.
 */

import {
  type ContextPreview,
  isJsonObject,
  isProtocolError,
  isReceiptKind,
  isResultType,
  type JsonValue,
  objectEntries,
  objectGet,
  pointerAppend,
  projectResult,
  RECEIPT_KINDS,
  REMOVED_TOOL_FIELDS,
  RESULT_TYPES,
  type ReceiptKind,
  type ResultType,
} from "@toolhost/protocol";
import { type CheckProblem, RECEIPT_ID_MAX_LENGTH } from "@toolhost/protocol/wire";
import type { LosslessPart } from "./body-sections.js";

/** A mock receipt after checking; `preview` is set for a valid `completed` receipt. */
export interface CheckedReceipt {
  /** The receipt's ID when it sent a string; null otherwise. */
  receipt_id: string | null;
  /** The receipt kind when it is a known one; null otherwise. */
  kind: ReceiptKind | null;
  valid: boolean;
  errors: CheckProblem[];
  /** What the model would see of a valid `completed` receipt's result, projected to the tool's budget. */
  preview?: ContextPreview;
}

/** The members a mock receipt may have. */
export const MOCK_RECEIPT_FIELDS = ["receipt_id", "kind", "result", "result_type", "error", "progress"] as const;

/** Which kinds may carry each optional member (`result` is required on `completed`). */
const MEMBER_KINDS: Readonly<Record<"result" | "result_type" | "error" | "progress", readonly ReceiptKind[]>> = {
  result: ["completed"],
  result_type: ["completed"],
  error: ["failed", "cancelled", "reconciliation_required"],
  progress: ["progress"],
};

const KNOWN_FIELDS: ReadonlySet<string> = new Set(MOCK_RECEIPT_FIELDS);
const KIND_LIST = Object.keys(RECEIPT_KINDS).join(", ");

/** Checks one mock receipt read losslessly; `budget` is the tool's `max_result_context_bytes`. */
export function checkMockReceipt(part: LosslessPart, budget: number): CheckedReceipt {
  if (!part.ok) {
    // Named from the JSON.parse reading, which accepted it: the lossless reader refused something inside.
    const { error, plain } = part;
    const named = isJsonObject(plain) && !(plain instanceof Map) ? plain : {};
    return invalid(
      typeof named.receipt_id === "string" ? named.receipt_id : null,
      isReceiptKind(named.kind) ? named.kind : null,
      [{ pointer: error.pointer ?? "", message: `${error.code}: ${error.message}` }],
    );
  }
  const receipt = part.value;
  if (!isJsonObject(receipt))
    return invalid(null, null, [{ pointer: "", message: "a mock receipt must be a JSON object" }]);
  const errors: CheckProblem[] = [];
  for (const [key] of objectEntries(receipt)) {
    if (KNOWN_FIELDS.has(key)) continue;
    const replacement = Object.hasOwn(REMOVED_TOOL_FIELDS, key)
      ? `; ${key} was removed, without alias (the budget is the tool's max_result_context_bytes)`
      : "";
    errors.push({
      pointer: pointerAppend("", key),
      message: `unknown field ${JSON.stringify(key)}; a receipt has only ${MOCK_RECEIPT_FIELDS.join(", ")}${replacement}`,
    });
  }

  const receiptId = objectGet(receipt, "receipt_id");
  if (receiptId === undefined) errors.push({ pointer: "/receipt_id", message: "receipt_id is required" });
  else if (typeof receiptId !== "string" || receiptId.length === 0 || receiptId.length > RECEIPT_ID_MAX_LENGTH) {
    errors.push({
      pointer: "/receipt_id",
      message: `receipt_id must be a string of 1–${RECEIPT_ID_MAX_LENGTH} characters`,
    });
  }

  const kindValue = objectGet(receipt, "kind");
  const kind = isReceiptKind(kindValue) ? kindValue : null;
  if (kindValue === undefined) errors.push({ pointer: "/kind", message: `kind is required: one of ${KIND_LIST}` });
  else if (kind === null) errors.push({ pointer: "/kind", message: `kind must be one of ${KIND_LIST}` });

  if (kind !== null) {
    for (const [member, kinds] of Object.entries(MEMBER_KINDS)) {
      if (objectGet(receipt, member) !== undefined && !kinds.includes(kind)) {
        errors.push({ pointer: `/${member}`, message: `a ${kind} receipt carries no ${member}` });
      }
    }
  }
  for (const member of ["error", "progress"] as const) {
    const value = objectGet(receipt, member);
    if (value !== undefined && !isJsonObject(value)) {
      errors.push({ pointer: `/${member}`, message: `${member} must be a JSON object` });
    }
  }

  const resultType = resultTypeOf(objectGet(receipt, "result_type"), errors);
  const result = objectGet(receipt, "result");
  if (kind === "completed" && result === undefined) {
    errors.push({ pointer: "/result", message: "a completed receipt must carry its result" });
  }
  if (kind === "failed" && objectGet(receipt, "error") === undefined) {
    errors.push({ pointer: "/error", message: "a failed receipt must carry the product's error object" });
  }

  const id = typeof receiptId === "string" ? receiptId : null;
  if (errors.length > 0) return invalid(id, kind, errors);
  if (kind !== "completed" || result === undefined) return { receipt_id: id, kind, valid: true, errors };
  try {
    return { receipt_id: id, kind, valid: true, errors, preview: projectResult(result, budget, resultType) };
  } catch (error) {
    // The projection refuses what the model could not be shown (a multimodal result of another shape).
    if (!isProtocolError(error)) throw error;
    return invalid(id, kind, [
      { pointer: `/result${error.pointer ?? ""}`, message: `${error.code}: ${error.message}` },
    ]);
  }
}

/** The receipt's result type (default `json`); a bad one is recorded in `errors`. */
function resultTypeOf(value: JsonValue | undefined, errors: CheckProblem[]): ResultType {
  if (value === undefined) return RESULT_TYPES.json;
  if (isResultType(value)) return value;
  errors.push({
    pointer: "/result_type",
    message: `result_type must be one of ${Object.keys(RESULT_TYPES).join(", ")}`,
  });
  return RESULT_TYPES.json;
}

function invalid(receiptId: string | null, kind: ReceiptKind | null, errors: CheckProblem[]): CheckedReceipt {
  return { receipt_id: receiptId, kind, valid: false, errors };
}
