/**
 * Retry delays (pure): exponential backoff with "equal jitter" — half the exponential step is fixed,
 * half random — so retries of many executors spread out after a server restart, yet never collapse
 * to zero delay.
 */

/** Bounds of the backoff. */
export interface BackoffBounds {
  readonly minMs: number;
  readonly maxMs: number;
}

/** The delay before retry number `attempt` (0 for the first retry), with `random` in [0, 1). */
export function backoffDelayMs(attempt: number, bounds: BackoffBounds, random: number): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const step = Math.min(bounds.maxMs, bounds.minMs * 2 ** exponent);
  const jitter = Math.min(Math.max(random, 0), 1);
  return Math.max(1, Math.round(step / 2 + (step / 2) * jitter));
}
