/**
 * How a result is projected for the model, chosen by the receipt's `result_type`.
 */

/** The result types and what the projection does with each. */
export const RESULT_TYPES = {
  /** Plain JSON: cut to a head/tail preview with preserved status fields when over budget. */
  json: "json",
  /** `{"content":[block,…]}`: only text blocks are cut; images, audio and files stay verbatim. */
  multimodal: "multimodal",
  /** A submission the model must see whole: never cut. */
  submission: "submission",
  /** Opaque replay content passed back verbatim: never cut. */
  opaque: "opaque",
} as const;

/** One of the result types. */
export type ResultType = keyof typeof RESULT_TYPES;

/** True when `value` names a result type. */
export function isResultType(value: unknown): value is ResultType {
  return typeof value === "string" && Object.hasOwn(RESULT_TYPES, value);
}
