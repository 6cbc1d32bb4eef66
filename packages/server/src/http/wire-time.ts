/** Stored times are epoch milliseconds; the wire writes them as ISO 8601 UTC text. */

/** `2026-09-30T12:00:00.000Z` for `ms`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** `isoTime(ms)`, or null for null. */
export function isoTimeOrNull(ms: number | null): string | null {
  return ms === null ? null : isoTime(ms);
}
