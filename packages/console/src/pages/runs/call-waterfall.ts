/**
 * The geometry of the call waterfall: each call as a bar on the run's time axis, split into waiting
 * for a claim (created → claimed), claimed until confirmed (→ accepted) and running (→ settled),
 * with each part's duration. Pure (the page passes "now" for calls still open).
 */

import type { Run, ToolCall } from "@toolhost/protocol/wire";

/** One part of a call's bar: where it starts and how wide it is, in percent of the axis. */
export interface WaterfallPart {
  readonly phase: "waiting" | "claimed" | "running";
  readonly left: number;
  readonly width: number;
  readonly ms: number;
}

/** One call's row. */
export interface WaterfallRow {
  readonly callId: string;
  readonly toolName: string;
  readonly status: ToolCall["status"];
  readonly parts: WaterfallPart[];
  /** From creation to settling (or to now while open). */
  readonly totalMs: number;
  readonly open: boolean;
}

/** The axis's span and the rows. */
export interface Waterfall {
  readonly startMs: number;
  readonly spanMs: number;
  readonly rows: WaterfallRow[];
}

/** A duration for people: `850 ms`, `1.25 s`, `2 min 5 s`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The waterfall of `calls` from the run's creation to its end (or `nowMs` while it runs). */
export function waterfallOf(run: Run, calls: readonly ToolCall[], nowMs: number): Waterfall {
  const at = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));
  const startMs = Date.parse(run.created_at);
  const ends = calls.map((call) => at(call.settled_at) ?? nowMs);
  const endMs = Math.max(at(run.ended_at) ?? nowMs, ...ends, startMs + 1);
  const spanMs = endMs - startMs;
  const percent = (ms: number) => (ms / spanMs) * 100;
  const rows = calls.map((call, index) => {
    const created = Date.parse(call.created_at);
    const end = ends[index] ?? nowMs;
    const claimed = Math.min(at(call.claimed_at) ?? end, end);
    const accepted = Math.min(at(call.accepted_at) ?? end, end);
    const bounds: [WaterfallPart["phase"], number, number][] = [
      ["waiting", created, claimed],
      ["claimed", claimed, Math.max(claimed, accepted)],
      ["running", Math.max(claimed, accepted), end],
    ];
    const parts = bounds
      .filter(([, from, to]) => to > from)
      .map(([phase, from, to]) => ({ phase, left: percent(from - startMs), width: percent(to - from), ms: to - from }));
    return {
      callId: call.call_id,
      toolName: call.tool_name,
      status: call.status,
      parts,
      totalMs: Math.max(0, end - created),
      open: call.settled_at === undefined,
    };
  });
  return { startMs, spanMs, rows };
}
