/**
 * The payload of a cross-instance wake-up (`NOTIFY toolhost_calls, '<payload>'`), pure. One payload
 * is compact JSON `{"o":origin,"s":schema,"b":[binding IDs]}`: the origin lets an instance skip its own
 * notifications (it woke its waiters in process already), the schema keeps servers sharing a database
 * but not a schema apart. PostgreSQL refuses payloads of 8,000 bytes or more, so a long list of
 * binding IDs is split over several payloads, each under WAKEUP_PAYLOAD_MAX_BYTES.
 */

/** The channel every instance LISTENs on. */
export const WAKEUP_CHANNEL = "toolhost_calls";

/** Largest payload sent, in UTF-8 bytes (PostgreSQL's limit is 8,000; leave room). */
export const WAKEUP_PAYLOAD_MAX_BYTES = 7_500;

/** A decoded wake-up. */
export interface WakeupMessage {
  /** The instance that sent it. */
  readonly origin: string;
  /** The schema of the sender's tables. */
  readonly schema: string;
  /** Bindings whose calls became claimable. */
  readonly bindingIds: readonly string[];
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/**
 * The payloads announcing `bindingIds` (deduplicated), each at most `maxBytes`. A binding ID too long
 * to fit a payload on its own is dropped (IDs are at most 128 characters, far below the limit).
 */
export function encodeWakeups(
  origin: string,
  schema: string,
  bindingIds: Iterable<string>,
  maxBytes = WAKEUP_PAYLOAD_MAX_BYTES,
): string[] {
  const head = `{"o":${JSON.stringify(origin)},"s":${JSON.stringify(schema)},"b":[`;
  const tail = "]}";
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = bytes(head) + bytes(tail);
  for (const bindingId of new Set(bindingIds)) {
    const part = JSON.stringify(bindingId);
    const extra = bytes(part) + (parts.length > 0 ? 1 : 0);
    if (bytes(head) + bytes(part) + bytes(tail) > maxBytes) continue;
    if (size + extra > maxBytes) {
      payloads.push(head + parts.join(",") + tail);
      parts = [];
      size = bytes(head) + bytes(tail);
    }
    size += bytes(part) + (parts.length > 0 ? 1 : 0);
    parts.push(part);
  }
  if (parts.length > 0) payloads.push(head + parts.join(",") + tail);
  return payloads;
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
  const { o, s, b } = value as Record<string, unknown>;
  if (typeof o !== "string" || typeof s !== "string" || !Array.isArray(b)) return undefined;
  if (!b.every((id) => typeof id === "string")) return undefined;
  return { origin: o, schema: s, bindingIds: b as string[] };
}
