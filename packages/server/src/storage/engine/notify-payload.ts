/**
 * The framing of every cross-instance notification (`NOTIFY <channel>, '<payload>'`), pure: compact
 * JSON `{"o":origin,"s":schema,"<field>":[items]}`. The origin lets an instance skip its own
 * notifications, the schema keeps servers sharing a database but not a schema apart. PostgreSQL
 * refuses payloads of 8,000 bytes or more, so a long list is split over several payloads of at most
 * `maxBytes`; an item too long for a payload of its own is dropped (IDs and names are at most 128
 * characters, far below the limit).
 */

/** Largest payload sent, in UTF-8 bytes (PostgreSQL's limit is 8,000; leave room). */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7_500;

/** A decoded notification. */
export interface NotifyMessage<Item> {
  /** The instance that sent it. */
  readonly origin: string;
  /** The schema of the sender's tables. */
  readonly schema: string;
  /** What it announces. */
  readonly items: readonly Item[];
}

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** The payloads carrying `items` (each already its compact JSON text) under `field`, each at most `maxBytes`. */
export function encodeNotifyPayloads(
  origin: string,
  schema: string,
  field: string,
  items: Iterable<string>,
  maxBytes = NOTIFY_PAYLOAD_MAX_BYTES,
): string[] {
  const head = `{"o":${JSON.stringify(origin)},"s":${JSON.stringify(schema)},${JSON.stringify(field)}:[`;
  const tail = "]}";
  const frame = bytes(head) + bytes(tail);
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = frame;
  for (const text of items) {
    const length = bytes(text);
    if (frame + length > maxBytes) continue;
    if (size + length + (parts.length > 0 ? 1 : 0) > maxBytes) {
      payloads.push(head + parts.join(",") + tail);
      parts = [];
      size = frame;
    }
    size += length + (parts.length > 0 ? 1 : 0);
    parts.push(text);
  }
  if (parts.length > 0) payloads.push(head + parts.join(",") + tail);
  return payloads;
}

/**
 * The message in `payload` whose list is under `field`, each item read by `itemOf` (undefined: not
 * one); undefined when the payload is not one of ours (ignored, never thrown).
 */
export function decodeNotifyPayload<Item>(
  payload: string | undefined,
  field: string,
  itemOf: (value: unknown) => Item | undefined,
): NotifyMessage<Item> | undefined {
  if (payload === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { o: origin, s: schema } = value as Record<string, unknown>;
  const list = (value as Record<string, unknown>)[field];
  if (typeof origin !== "string" || typeof schema !== "string" || !Array.isArray(list)) return undefined;
  const items: Item[] = [];
  for (const entry of list) {
    const item = itemOf(entry);
    if (item === undefined) return undefined;
    items.push(item);
  }
  return { origin, schema, items };
}
