/** The server's only source of time, so tests can pin it. */

/** Tells the current time. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
}

/** The wall clock. */
export const systemClock: Clock = { nowMs: () => Date.now() };
