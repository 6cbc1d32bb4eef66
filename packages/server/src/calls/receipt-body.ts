/**
 * Reading a receipt from the exact text of its request (pure). The route's schema has already checked
 * the envelope (strict members, known kind, string IDs); here the body is read again, losslessly, so the
 * result keeps its big integers, float spellings and key order, and the rules that depend on the kind
 * are checked: `completed` carries its `result` (and only it carries `result`/`result_type`), `failed`
 * its `error`, a multimodal result has the multimodal shape. The body's digest identifies a redelivery.
 */

import {
  argumentsDigest,
  compact,
  isJsonObject,
  isProtocolError,
  isReceiptKind,
  isResultType,
  type JsonValue,
  MeasuredResult,
  multimodalParts,
  objectGet,
  ProtocolError,
  parseJson,
  RESULT_TYPES,
  type ReceiptKind,
  type ResultType,
  utf8Length,
} from "@toolhost/protocol";

/** A receipt as the server works with it. */
export interface IncomingReceipt {
  readonly receipt_id: string;
  readonly executor_id: string;
  readonly claim_id: string;
  readonly grant: string;
  readonly kind: ReceiptKind;
  /** The measured result of a `completed` receipt. */
  readonly result: MeasuredResult | undefined;
  /** How the result is projected (default `json`). */
  readonly result_type: ResultType;
  /** The product's error object, when sent. */
  readonly error: JsonValue | undefined;
  /** The bytes of a `progress` receipt's `progress` value as compact JSON (the size limit's measure). */
  readonly progress_bytes: number | undefined;
  /** The request body exactly as received. */
  readonly body_text: string;
  /** `sha256:` of the body's sorted canonical form: equal digests are the same receipt. */
  readonly body_digest: string;
}

/** Which kinds may carry each optional member (and which must: `result` on completed, `error` on failed). */
const MEMBER_KINDS: Readonly<Record<"result" | "result_type" | "error" | "progress", readonly ReceiptKind[]>> = {
  result: ["completed"],
  result_type: ["completed"],
  error: ["failed", "cancelled", "reconciliation_required"],
  progress: ["progress"],
};

/** Reads and checks a receipt body; throws a 4xx ProtocolError with the pointer at fault. */
export function readReceiptBody(bodyText: string): IncomingReceipt {
  const body = parseJson(bodyText);
  if (!isJsonObject(body)) throw new ProtocolError("validation_failed", "a receipt must be a JSON object", "");
  const text = (member: string): string => {
    const value = objectGet(body, member);
    if (typeof value !== "string")
      throw new ProtocolError("validation_failed", `${member} must be a string`, `/${member}`);
    return value;
  };
  const kind = objectGet(body, "kind");
  if (!isReceiptKind(kind)) throw new ProtocolError("validation_failed", "kind must be a receipt kind", "/kind");
  for (const [member, kinds] of Object.entries(MEMBER_KINDS)) {
    if (objectGet(body, member) !== undefined && !kinds.includes(kind)) {
      throw new ProtocolError("validation_failed", `a ${kind} receipt carries no ${member}`, `/${member}`);
    }
  }
  const error = objectGet(body, "error");
  if (kind === "failed" && error === undefined) {
    throw new ProtocolError("validation_failed", "a failed receipt must carry the product's error object", "/error");
  }
  const resultValue = objectGet(body, "result");
  if (kind === "completed" && resultValue === undefined) {
    throw new ProtocolError("validation_failed", "a completed receipt must carry its result", "/result");
  }
  const resultType = resultTypeOf(objectGet(body, "result_type"));
  const progress = objectGet(body, "progress");
  if (resultValue !== undefined && resultType === RESULT_TYPES.multimodal) checkMultimodal(resultValue);
  return {
    receipt_id: text("receipt_id"),
    executor_id: text("executor_id"),
    claim_id: text("claim_id"),
    grant: text("grant"),
    kind,
    result: resultValue === undefined ? undefined : MeasuredResult.of(resultValue),
    result_type: resultType,
    error,
    progress_bytes: progress === undefined ? undefined : utf8Length(compact(progress)),
    body_text: bodyText,
    body_digest: argumentsDigest(body),
  };
}

function resultTypeOf(value: JsonValue | undefined): ResultType {
  if (value === undefined) return RESULT_TYPES.json;
  if (isResultType(value)) return value;
  throw new ProtocolError(
    "validation_failed",
    `result_type must be one of ${Object.keys(RESULT_TYPES).join(", ")}`,
    "/result_type",
  );
}

/** The projection's own multimodal check, its pointer moved under `/result`. */
function checkMultimodal(result: JsonValue): void {
  try {
    multimodalParts(result);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    throw new ProtocolError(error.code, error.message, `/result${error.pointer ?? ""}`, error.details);
  }
}
