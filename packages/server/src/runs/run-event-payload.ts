/**
 * The payload of a cross-instance run event wake-up (`NOTIFY toolhost_run_events, '<payload>'`), pure:
 * compact JSON `{"o":origin,"s":schema,"r":[run IDs]}`. The origin lets an instance skip its own
 * notifications (it woke its readers in process), the schema keeps servers sharing a database but not
 * a schema apart. PostgreSQL refuses payloads of 8,000 bytes or more, so many run IDs are split over
 * several payloads of at most RUN_EVENT_PAYLOAD_MAX_BYTES.
 */

/** The channel every instance LISTENs on for runs with new events. */
export const RUN_EVENT_CHANNEL = "toolhost_run_events";

/** Largest payload sent, in UTF-8 bytes (PostgreSQL's limit is 8,000; leave room). */
export const RUN_EVENT_PAYLOAD_MAX_BYTES = 7_500;

/** A decoded run event wake-up. */
export interface RunEventMessage {
  readonly origin: string;
  readonly schema: string;
  readonly runIds: readonly string[];
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** The payloads announcing `runIds` (deduplicated), each at most `maxBytes`; an ID too long for one is dropped. */
export function encodeRunEventWakeups(
  origin: string,
  schema: string,
  runIds: Iterable<string>,
  maxBytes = RUN_EVENT_PAYLOAD_MAX_BYTES,
): string[] {
  const head = `{"o":${JSON.stringify(origin)},"s":${JSON.stringify(schema)},"r":[`;
  const tail = "]}";
  const empty = bytes(head) + bytes(tail);
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = empty;
  for (const runId of new Set(runIds)) {
    const part = JSON.stringify(runId);
    if (empty + bytes(part) > maxBytes) continue;
    const extra = bytes(part) + (parts.length > 0 ? 1 : 0);
    if (size + extra > maxBytes) {
      payloads.push(head + parts.join(",") + tail);
      parts = [];
      size = empty;
    }
    size += bytes(part) + (parts.length > 0 ? 1 : 0);
    parts.push(part);
  }
  if (parts.length > 0) payloads.push(head + parts.join(",") + tail);
  return payloads;
}

/** The message in `payload`, or undefined when it is not one of ours (ignored, never thrown). */
export function decodeRunEventWakeup(payload: string | undefined): RunEventMessage | undefined {
  if (payload === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { o, s, r } = value as Record<string, unknown>;
  if (typeof o !== "string" || typeof s !== "string" || !Array.isArray(r)) return undefined;
  if (!r.every((id) => typeof id === "string")) return undefined;
  return { origin: o, schema: s, runIds: r as string[] };
}
