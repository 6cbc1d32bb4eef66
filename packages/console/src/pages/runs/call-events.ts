/**
 * The events of one tool call's timeline, derived from the call row and its stored receipts (pure):
 * created, claimed by whom, accepted, progress, the final receipt, late receipts, business cancel,
 * settled — oldest first.
 */

import type { StoredReceipt, ToolCall } from "@toolhost/protocol/wire";
import type { Translate } from "../../i18n/messages.js";

/** One line of a timeline. */
export interface TimelineEvent {
  readonly at: string;
  readonly text: string;
  readonly detail?: string;
  readonly tone?: "late" | "bad";
}

/** The events of `call` and its receipts, oldest first (pure). */
export function timelineOf(call: ToolCall, receipts: readonly StoredReceipt[], t: Translate): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  events.push({
    at: call.created_at,
    text:
      call.compensates === undefined
        ? t("timeline.created", { turn: call.turn ?? 0 })
        : t("timeline.createdCompensation", { call: call.compensates }),
  });
  if (call.rejected !== undefined) {
    events.push({ at: call.created_at, text: t("timeline.rejected", { reason: call.rejected }), tone: "bad" });
  }
  if (call.claimed_at !== undefined && call.executor_id !== undefined) {
    events.push({
      at: call.claimed_at,
      text: t("timeline.claimed", { executor: call.executor_id }),
      detail: call.claim_id,
    });
  }
  for (const receipt of receipts) {
    const late = !receipt.applied;
    events.push({
      at: receipt.created_at,
      text: `${receipt.kind === "accepted" ? t("timeline.accepted") : t("timeline.receipt", { kind: receipt.kind })}${
        late ? ` — ${t("timeline.late")}` : ""
      }`,
      detail: `${receipt.receipt_id} · ${receipt.executor_id} · ${receipt.body_bytes} B`,
      ...(late ? { tone: "late" as const } : {}),
    });
  }
  if (call.cancel_requested_at !== undefined) {
    events.push({ at: call.cancel_requested_at, text: t("timeline.cancelRequested") });
  }
  if (call.settled_at !== undefined) {
    events.push({ at: call.settled_at, text: t("timeline.settled", { status: call.status }) });
  }
  // Stable: equal times keep the order above (created, claimed, receipts, settled).
  return events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || a.index - b.index)
    .map(({ event }) => event);
}
