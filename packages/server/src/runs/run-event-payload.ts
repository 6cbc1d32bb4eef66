/**
 * The payload of a cross-instance run event wake-up (`NOTIFY toolhost_run_events, '<payload>'`), pure:
 * compact JSON `{"o":origin,"s":schema,"r":[run IDs]}`. An instance skips its own notifications (it woke
 * its readers in process); the framing is every notification's: storage/engine/notify-payload.ts.
 */

import {
  decodeNotifyPayload,
  encodeNotifyPayloads,
  NOTIFY_PAYLOAD_MAX_BYTES,
} from "../storage/engine/notify-payload.js";

/** The channel every instance LISTENs on for runs with new events. */
export const RUN_EVENT_CHANNEL = "toolhost_run_events";

/** Largest payload sent, in UTF-8 bytes (PostgreSQL's limit is 8,000; leave room). */
export const RUN_EVENT_PAYLOAD_MAX_BYTES = NOTIFY_PAYLOAD_MAX_BYTES;

/** A decoded run event wake-up. */
export interface RunEventMessage {
  readonly origin: string;
  readonly schema: string;
  readonly runIds: readonly string[];
}

/** The payloads announcing `runIds` (deduplicated), each at most `maxBytes`; an ID too long for one is dropped. */
export function encodeRunEventWakeups(
  origin: string,
  schema: string,
  runIds: Iterable<string>,
  maxBytes = RUN_EVENT_PAYLOAD_MAX_BYTES,
): string[] {
  return encodeNotifyPayloads(
    origin,
    schema,
    "r",
    Array.from(new Set(runIds), (runId) => JSON.stringify(runId)),
    maxBytes,
  );
}

/** The message in `payload`, or undefined when it is not one of ours (ignored, never thrown). */
export function decodeRunEventWakeup(payload: string | undefined): RunEventMessage | undefined {
  const message = decodeNotifyPayload(payload, "r", (id) => (typeof id === "string" ? id : undefined));
  return message === undefined ? undefined : { origin: message.origin, schema: message.schema, runIds: message.items };
}
