/**
 * The runs list's state as it lives in the URL (`/runs?status=failed&agent=agt_…&cursor=…`), so a
 * reload, a shared link and back/forward keep the filters and the page; and what a searched ID is.
 */

/** The run statuses the filter offers (the API's, in lifecycle order). */
export const RUN_STATUS_FILTERS = [
  "queued",
  "running",
  "waiting_for_tools",
  "completed",
  "failed",
  "cancelled",
  "expired",
] as const;

/** Runs per page unless the URL says `limit` (1 to MAX_RUNS_PAGE, the API's largest page). */
export const RUNS_PAGE = 50;

/** The largest page the API answers. */
export const MAX_RUNS_PAGE = 200;

/** What the runs list shows: a status and an agent filter, or one session's runs; the page's cursor and size. */
export interface RunsQuery {
  readonly status?: string;
  readonly agent?: string;
  readonly session?: string;
  readonly cursor?: string;
  readonly limit?: string;
}

const KEYS = ["status", "agent", "session", "cursor", "limit"] as const;

/** The page size of a query: its `limit` when a whole number from 1 to MAX_RUNS_PAGE, else RUNS_PAGE. */
export function pageSizeOf(query: RunsQuery): number {
  const limit = query.limit === undefined ? Number.NaN : Number(query.limit);
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_RUNS_PAGE ? limit : RUNS_PAGE;
}

/** The query of a location's search string (unknown parameters and empty values are ignored). */
export function runsQueryOf(search: string): RunsQuery {
  const params = new URLSearchParams(search);
  const query: Record<string, string> = {};
  for (const key of KEYS) {
    const value = params.get(key)?.trim();
    if (value !== undefined && value !== "") query[key] = value;
  }
  return query;
}

/** The `/runs` path of a query, its parameters in a fixed order (so equal queries give equal URLs). */
export function runsPathOf(query: RunsQuery): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = query[key];
    if (value !== undefined && value !== "") params.set(key, value);
  }
  const text = params.toString();
  return text === "" ? "/runs" : `/runs?${text}`;
}

/** What a searched text names, from the ID's prefix (`run_…`, `ses_…`, `call_…`). */
export type SearchTarget =
  | { readonly kind: "run" | "session" | "call"; readonly id: string }
  | { readonly kind: "unknown"; readonly text: string };

const PREFIXES = { run: "run", ses: "session", call: "call" } as const;

/** The target of a searched text (trimmed; an ID without a known prefix is `unknown`). */
export function searchTargetOf(text: string): SearchTarget {
  const trimmed = text.trim();
  const match = /^([a-z]+)_[0-9a-z]+$/i.exec(trimmed);
  const kind = match?.[1] === undefined ? undefined : PREFIXES[match[1].toLowerCase() as keyof typeof PREFIXES];
  return kind === undefined ? { kind: "unknown", text: trimmed } : { kind, id: trimmed };
}
