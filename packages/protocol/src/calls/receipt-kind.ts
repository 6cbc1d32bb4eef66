/**
 * Receipt kinds: what an executor reports about a call it holds, and which call event each one is.
 */

import type { CallEvent } from "./call-transitions.js";

/** Every receipt kind. */
export const RECEIPT_KINDS = {
  /** The executor persisted the operation key and assignment and asks to start; answered `confirmed`. */
  accepted: "accepted",
  /** Interim progress of an accepted call; saved before it is sent, like every receipt. */
  progress: "progress",
  /** The business result (final). */
  completed: "completed",
  /** A business failure the product confirmed (final). */
  failed: "failed",
  /** A cancellation the product confirmed (final). */
  cancelled: "cancelled",
  /** The outcome is unknown (e.g. the handler threw); the product will reconcile and report later. */
  reconciliation_required: "reconciliation_required",
} as const;

/** One receipt kind. */
export type ReceiptKind = keyof typeof RECEIPT_KINDS;

/** Kinds that end a call (for `reconciliation_required`: end it for the model, pending reconciliation). */
export const FINAL_RECEIPT_KINDS: ReadonlySet<ReceiptKind> = new Set([
  "completed",
  "failed",
  "cancelled",
  "reconciliation_required",
]);

/** The call event each receipt kind is (`progress` changes no status). */
export const RECEIPT_EVENTS: Readonly<Record<ReceiptKind, CallEvent | null>> = {
  accepted: "accept",
  progress: null,
  completed: "complete",
  failed: "fail",
  cancelled: "confirm_cancel",
  reconciliation_required: "report_unknown",
};

/** True when `value` names a receipt kind. */
export function isReceiptKind(value: unknown): value is ReceiptKind {
  return typeof value === "string" && Object.hasOwn(RECEIPT_KINDS, value);
}
