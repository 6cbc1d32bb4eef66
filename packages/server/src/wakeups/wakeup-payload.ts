/**
 * The payload of a cross-instance wake-up (`NOTIFY toolhost_calls, '<payload>'`), pure. One payload
 * is compact JSON `{"o":origin,"s":schema,"w":[wake-ups]}`, each wake-up an array: `["c", call ID,
 * binding ID, tool name, hand-offs]` for a claimable call, `["x", executor ID]` for a cancel. The
 * framing (origin, schema, splitting under PostgreSQL's payload limit) is every notification's:
 * storage/engine/notify-payload.ts.
 */

import {
  decodeNotifyPayload,
  encodeNotifyPayloads,
  NOTIFY_PAYLOAD_MAX_BYTES,
} from "../storage/engine/notify-payload.js";
import type { Wakeup } from "./wakeup.js";

/** The channel every instance LISTENs on. */
export const WAKEUP_CHANNEL = "toolhost_calls";

/** Largest payload sent, in UTF-8 bytes (PostgreSQL's limit is 8,000; leave room). */
export const WAKEUP_PAYLOAD_MAX_BYTES = NOTIFY_PAYLOAD_MAX_BYTES;

/** A decoded wake-up message. */
export interface WakeupMessage {
  /** The instance that sent it. */
  readonly origin: string;
  /** The schema of the sender's tables. */
  readonly schema: string;
  /** What it announces. */
  readonly wakeups: readonly Wakeup[];
}

/** One wake-up as its payload array. */
function part(wakeup: Wakeup): string {
  return JSON.stringify(
    wakeup.kind === "call"
      ? ["c", wakeup.call_id, wakeup.binding_id, wakeup.tool_name, wakeup.handoffs]
      : ["x", wakeup.executor_id],
  );
}

/** The payloads announcing `wakeups`, each at most `maxBytes` (storage/engine/notify-payload.ts). */
export function encodeWakeups(
  origin: string,
  schema: string,
  wakeups: Iterable<Wakeup>,
  maxBytes = WAKEUP_PAYLOAD_MAX_BYTES,
): string[] {
  return encodeNotifyPayloads(origin, schema, "w", Array.from(wakeups, part), maxBytes);
}

/** One payload array as a wake-up, or undefined when it is not one. */
function wakeupOf(value: unknown): Wakeup | undefined {
  if (!Array.isArray(value)) return undefined;
  const [kind, a, b, c, d] = value as unknown[];
  if (kind === "c" && typeof a === "string" && typeof b === "string" && typeof c === "string") {
    if (typeof d !== "number" || !Number.isSafeInteger(d) || d < 0) return undefined;
    return { kind: "call", call_id: a, binding_id: b, tool_name: c, handoffs: d };
  }
  if (kind === "x" && typeof a === "string" && value.length === 2) return { kind: "cancel", executor_id: a };
  return undefined;
}

/** The message in `payload`, or undefined when it is not one of ours (ignored, never thrown). */
export function decodeWakeup(payload: string | undefined): WakeupMessage | undefined {
  const message = decodeNotifyPayload(payload, "w", wakeupOf);
  return message === undefined ? undefined : { origin: message.origin, schema: message.schema, wakeups: message.items };
}
