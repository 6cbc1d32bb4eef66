/**
 * An agent version's context window: the most input tokens one model request may hold. Every model
 * request is checked against it (docs/projection.md); over it the run compacts its oldest history.
 */

/** Bounds and default of `max_context_tokens`, in tokens. */
export const MAX_CONTEXT_TOKENS = {
  /** The smallest window an agent version may declare. */
  min: 1024,
  /** The largest: 10 million tokens, above every model offered today. */
  max: 10_000_000,
  /** The window of an agent version that declares none. */
  default: 200_000,
} as const;
