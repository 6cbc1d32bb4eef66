/**
 * How many run event streams are open on this instance, per API key and in all, and the decision to
 * admit one more: at most `perKey` for one key and `total` in all (`maxEventStreamsPerKey`,
 * `maxEventStreams`); beyond, 429 `too_many_streams` with `Retry-After`. A stream holds a socket, a
 * timer and a bounded buffer, so these two numbers bound what streams can cost (docs/security.md).
 */

import { ProtocolError } from "@toolhost/protocol";

/** The `Retry-After` (seconds) of a refused stream: streams end (run ended, client gone) all the time. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** The stream limits of one instance. */
export interface EventStreamLimits {
  readonly perKey: number;
  readonly total: number;
}

/** Why a new stream of a key is refused now, if it is (pure). */
export function streamRefusal(
  openOfKey: number,
  openInAll: number,
  limits: EventStreamLimits,
): ProtocolError | undefined {
  const details = { retry_after_seconds: STREAM_RETRY_AFTER_SECONDS };
  if (openOfKey >= limits.perKey) {
    return new ProtocolError(
      "too_many_streams",
      `this API key has ${limits.perKey} event streams open, the most allowed (maxEventStreamsPerKey)`,
      undefined,
      { ...details, limit: limits.perKey, scope: "key" },
    );
  }
  if (openInAll >= limits.total) {
    return new ProtocolError(
      "too_many_streams",
      `this server has ${limits.total} event streams open, the most allowed (maxEventStreams)`,
      undefined,
      { ...details, limit: limits.total, scope: "server" },
    );
  }
  return undefined;
}

/** The open streams of one instance, counted per key. */
export class OpenEventStreams {
  readonly #byKey = new Map<string, number>();
  #total = 0;

  constructor(private readonly limits: EventStreamLimits) {}

  /** Counts a new stream of `keyId`, or throws `too_many_streams`; answers its release (idempotent). */
  admit(keyId: string): () => void {
    const refusal = streamRefusal(this.#byKey.get(keyId) ?? 0, this.#total, this.limits);
    if (refusal !== undefined) throw refusal;
    this.#byKey.set(keyId, (this.#byKey.get(keyId) ?? 0) + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = (this.#byKey.get(keyId) ?? 1) - 1;
      if (left <= 0) this.#byKey.delete(keyId);
      else this.#byKey.set(keyId, left);
    };
  }

  /** Streams open now. */
  get total(): number {
    return this.#total;
  }
}
