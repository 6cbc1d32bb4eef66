/**
 * The payload of a cross-instance wake-up (`NOTIFY toolhost_calls, '<payload>'`), pure. One payload
 * is compact JSON `{"o":origin,"s":schema,"w":[wake-ups]}`, each wake-up an array: `["c", call ID,
 * binding ID, tool name, hand-offs]` for a claimable call, `["x", executor ID]` for a cancel. The
 * origin lets an instance skip its own notifications, the schema keeps servers sharing a database but
 * not a schema apart. PostgreSQL refuses payloads of 8,000 bytes or more, so a long list is split
 * over several payloads, each under WAKEUP_PAYLOAD_MAX_BYTES.
 */

import type { Wakeup } from "./wakeup.js";

/** The channel every instance LISTENs on. */
export const WAKEUP_CHANNEL = "toolhost_calls";

/** Largest payload sent, in UTF-8 bytes (PostgreSQL's limit is 8,000; leave room). */
export const WAKEUP_PAYLOAD_MAX_BYTES = 7_500;

/** A decoded wake-up message. */
export interface WakeupMessage {
  /** The instance that sent it. */
  readonly origin: string;
  /** The schema of the sender's tables. */
  readonly schema: string;
  /** What it announces. */
  readonly wakeups: readonly Wakeup[];
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** One wake-up as its payload array. */
function part(wakeup: Wakeup): string {
  return JSON.stringify(
    wakeup.kind === "call"
      ? ["c", wakeup.call_id, wakeup.binding_id, wakeup.tool_name, wakeup.handoffs]
      : ["x", wakeup.executor_id],
  );
}

/**
 * The payloads announcing `wakeups`, each at most `maxBytes`. A wake-up too long to fit a payload on
 * its own is dropped (IDs and tool names are at most 128 characters, far below the limit).
 */
export function encodeWakeups(
  origin: string,
  schema: string,
  wakeups: Iterable<Wakeup>,
  maxBytes = WAKEUP_PAYLOAD_MAX_BYTES,
): string[] {
  const head = `{"o":${JSON.stringify(origin)},"s":${JSON.stringify(schema)},"w":[`;
  const tail = "]}";
  const frame = bytes(head) + bytes(tail);
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = frame;
  for (const wakeup of wakeups) {
    const text = part(wakeup);
    if (frame + bytes(text) > maxBytes) continue;
    const extra = bytes(text) + (parts.length > 0 ? 1 : 0);
    if (size + extra > maxBytes) {
      payloads.push(head + parts.join(",") + tail);
      parts = [];
      size = frame;
    }
    size += bytes(text) + (parts.length > 0 ? 1 : 0);
    parts.push(text);
  }
  if (parts.length > 0) payloads.push(head + parts.join(",") + tail);
  return payloads;
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
  if (payload === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { o, s, w } = value as Record<string, unknown>;
  if (typeof o !== "string" || typeof s !== "string" || !Array.isArray(w)) return undefined;
  const wakeups = w.map(wakeupOf);
  if (!wakeups.every((wakeup) => wakeup !== undefined)) return undefined;
  return { origin: o, schema: s, wakeups };
}
