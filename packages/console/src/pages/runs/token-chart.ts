/**
 * The geometry of the model requests chart: per request, the estimated input tokens (an outlined
 * bar) and the provider's actual count (a filled bar inside it), on a scale that always shows the
 * agent version's `max_context_tokens` line; compactions are marked. Pure, so it is tested alone.
 */

import type { ModelRequest } from "@toolhost/protocol/wire";

/** The chart's size in SVG units (it scales to its box). */
export const CHART = { width: 640, height: 220, left: 64, right: 12, top: 32, bottom: 28 } as const;

/** One request's bars. */
export interface TokenBar {
  readonly index: number;
  readonly x: number;
  readonly width: number;
  readonly estimatedY: number;
  /** Null when the provider reported no count (the scripted model, a failed request). */
  readonly actualY: number | null;
  readonly compacted: boolean;
  readonly summary: boolean;
}

/** The whole chart. */
export interface TokenChart {
  readonly bars: TokenBar[];
  /** The y of the `max_context_tokens` line. */
  readonly limitY: number;
  /** The y of the bottom axis (0 tokens). */
  readonly baseY: number;
  /** The largest token count the scale shows. */
  readonly scaleMax: number;
}

/** The chart of `requests` against `maxContextTokens`. */
export function tokenChartOf(requests: readonly ModelRequest[], maxContextTokens: number): TokenChart {
  const tallest = Math.max(
    maxContextTokens,
    ...requests.map((request) => Math.max(request.estimated_input_tokens, request.actual_input_tokens ?? 0)),
  );
  // A tenth of headroom above the tallest bar or the line (integer arithmetic: no 13200.000…2).
  const scaleMax = Math.max(1, Math.ceil((tallest * 11) / 10));
  const baseY = CHART.height - CHART.bottom;
  const plotHeight = baseY - CHART.top;
  const y = (tokens: number) => baseY - (tokens / scaleMax) * plotHeight;
  const slot = (CHART.width - CHART.left - CHART.right) / Math.max(1, requests.length);
  const width = Math.max(2, Math.min(48, slot * 0.6));
  return {
    bars: requests.map((request, index) => ({
      index,
      x: CHART.left + slot * index + (slot - width) / 2,
      width,
      estimatedY: y(request.estimated_input_tokens),
      actualY: request.actual_input_tokens === null ? null : y(request.actual_input_tokens),
      compacted: request.compacted,
      summary: request.purpose === "summary",
    })),
    limitY: y(maxContextTokens),
    baseY,
    scaleMax,
  };
}
