/**
 * What a batch of run events changed (docs/runs.md, "The event stream"): a `run.status` and a
 * `model.request` carry the new state itself, a `tool_call.status` the call (its receipts must be
 * read again), a `history.item` means the history must be read again (the page shows its exact
 * text). An event the server sent as a reference (its data over 64 KiB: `{"ref":{"href",…}}`, without
 * the state) asks for a full reload instead. Pure: the run page applies the state and refetches only
 * the named parts.
 */

import type { ModelRequest, Run, ToolCall } from "@toolhost/protocol/wire";

/** One event as the stream delivers it. */
export interface StreamEvent {
  readonly event: string;
  readonly data: unknown;
}

/** The changes of a batch. */
export interface RunChanges {
  /** The run's latest state, when a `run.status` came. */
  readonly run: Run | undefined;
  /** The latest state of each call that changed, by ID. */
  readonly calls: ReadonlyMap<string, ToolCall>;
  /** The model requests on record that came, by ID. */
  readonly models: ReadonlyMap<string, ModelRequest>;
  /** Whether a history item came (the history is read again). */
  readonly history: boolean;
  /** Whether a run, call or model request event came as a reference: everything is read again. */
  readonly reload: boolean;
}

/** True when `data` is an event sent as a reference rather than inline. */
function isReference(data: unknown): boolean {
  return typeof data === "object" && data !== null && typeof (data as { ref?: unknown }).ref === "object";
}

/** The changes of `events`, later events winning. Unknown events are ignored. */
export function changesOf(events: readonly StreamEvent[]): RunChanges {
  let run: Run | undefined;
  const calls = new Map<string, ToolCall>();
  const models = new Map<string, ModelRequest>();
  let history = false;
  let reload = false;
  for (const { event, data } of events) {
    if (event === "history.item") history = true;
    else if (isReference(data)) reload = true;
    else if (event === "run.status") run = data as Run;
    else if (event === "tool_call.status") calls.set((data as ToolCall).call_id, data as ToolCall);
    else if (event === "model.request") models.set((data as ModelRequest).request_id, data as ModelRequest);
  }
  return { run, calls, models, history, reload };
}

/** `list` with each changed item replaced where it is, and new ones appended in arrival order. */
export function patchList<Item>(
  list: readonly Item[],
  changed: ReadonlyMap<string, Item>,
  idOf: (item: Item) => string,
): Item[] {
  const known = new Set(list.map(idOf));
  const next = list.map((item) => changed.get(idOf(item)) ?? item);
  for (const [id, item] of changed) if (!known.has(id)) next.push(item);
  return next;
}
