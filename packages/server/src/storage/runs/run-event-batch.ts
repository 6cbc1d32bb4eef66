/**
 * Run events stored several to a row (pure). A commit usually appends a handful of events to a run
 * (creating a run: six; settling a call: two; a model turn: three), and on PostgreSQL each row costs
 * a tuple header, a line pointer and an index entry — more than most events hold. So the small events
 * one commit appends share one `run_events` row of kind `batch`: its `seq` is the seq of its LAST
 * event (the stream's "events after seq N" is then the rows whose seq is above N, read in key order),
 * and its `data_json` lists the events, each as compact as its kind allows:
 *
 * - `{"h":3}`: a `history.item` naming history item 3;
 * - `{"k":"r","r":"","s":{…}}`: a reference event of kind `k` (r: `run.status`, c:
 *   `tool_call.status`, m: `model.request`), the row it names (`r`; '' for the run's own ID) and its
 *   snapshot's members (`s`, absent for none). A snapshot is read by its members only
 *   (`runs/run-event-data.ts`), so it is kept as an object, not as text, and its `updated_at_ms` is
 *   left out when it is the event's time (every status change's is), null when it had none;
 * - `"t"`: the event's time when it differs from the row's `created_at_ms` (the first event's).
 *
 * An event with data of its own (`data_json`), a snapshot longer than MAX_BATCHED_SNAPSHOT_BYTES or a
 * commit's lone event keeps a row of its own, as before batches existed, so an old row and a large
 * one read as they always did, and a batch row stays small: at most MAX_BATCH_EVENTS events of at
 * most MAX_BATCHED_SNAPSHOT_BYTES each (docs/storage.md#run-events).
 */

import type { NewRunEvent } from "../records.js";

/** The `kind` of a row holding several events. */
export const BATCH_KIND = "batch";

/** The most events one batch row holds (a turn of many calls splits into several rows). */
export const MAX_BATCH_EVENTS = 64;

/** The longest snapshot an event may have to share a row (bytes of its text's UTF-8). */
export const MAX_BATCHED_SNAPSHOT_BYTES = 1024;

/** The row a reference to the event's own run stores instead of the run's ID. */
export const OWN_RUN = "";

const KIND_CODES = { "run.status": "r", "tool_call.status": "c", "model.request": "m" } as const;
type ReferenceKind = keyof typeof KIND_CODES;
const KINDS_BY_CODE: Record<string, ReferenceKind> = { r: "run.status", c: "tool_call.status", m: "model.request" };

/** One row to insert: an event of its own, or a batch of several. */
export type PlannedRow =
  | { readonly batch: false; readonly event: NewRunEvent; readonly atMs: number }
  | { readonly batch: true; readonly dataJson: string; readonly count: number; readonly atMs: number };

/** An event read back out of a batch row. */
export type BatchedEvent =
  | {
      readonly seq: number;
      readonly kind: "history.item";
      readonly history_seq: number;
      readonly created_at_ms: number;
    }
  | {
      readonly seq: number;
      readonly kind: ReferenceKind;
      /** The row named: '' (OWN_RUN) stands for the event's own run. */
      readonly ref_id: string;
      readonly snapshot_json: string | null;
      readonly created_at_ms: number;
    };

/** Whether `event` may share a row with others. */
function batchable(event: NewRunEvent): boolean {
  if (event.kind === "history.item") return true;
  if (!("ref_id" in event)) return false;
  const snapshot = event.snapshot_json;
  return (
    snapshot === null || (snapshot.startsWith("{") && Buffer.byteLength(snapshot, "utf8") <= MAX_BATCHED_SNAPSHOT_BYTES)
  );
}

/** One batched event as its batch lists it. */
function entryOf(runId: string, event: NewRunEvent, atMs: number, rowAtMs: number): string {
  const time = atMs === rowAtMs ? "" : `,"t":${atMs}`;
  if (event.kind === "history.item") return `{"h":${event.history_seq}${time}}`;
  if (!("ref_id" in event)) throw new Error(`a ${event.kind} event with data of its own is never batched`);
  const ref = event.kind === "run.status" && event.ref_id === runId ? OWN_RUN : event.ref_id;
  const snapshot = event.snapshot_json === null ? "" : `,"s":${storedSnapshot(event.snapshot_json, atMs)}`;
  return `{"k":"${KIND_CODES[event.kind]}","r":${JSON.stringify(ref)}${snapshot}${time}}`;
}

/** The members of a snapshot `snapshotJson` (an object) as a batch keeps them for an event at `atMs`. */
function storedSnapshot(snapshotJson: string, atMs: number): string {
  const members = JSON.parse(snapshotJson) as unknown;
  if (typeof members !== "object" || members === null || Array.isArray(members))
    throw new Error(`a snapshot is an object, not ${snapshotJson.slice(0, 40)}`);
  const kept: Record<string, unknown> = { ...members };
  if (kept.updated_at_ms === atMs) delete kept.updated_at_ms;
  else kept.updated_at_ms ??= null;
  return JSON.stringify(kept);
}

/** A stored snapshot's text again, for an event at `atMs`. */
function snapshotText(stored: unknown, atMs: number): string {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored))
    throw new Error("a snapshot that is no object");
  const members: Record<string, unknown> = { ...stored };
  if (!("updated_at_ms" in members)) members.updated_at_ms = atMs;
  return JSON.stringify(members);
}

/**
 * The rows that store `events` (event i made at `atMs[i]`) of `runId`, in order: runs of batchable
 * events share rows of up to MAX_BATCH_EVENTS; a lone one and any other event get a row each.
 */
export function planRows(runId: string, events: readonly NewRunEvent[], atMs: readonly number[]): PlannedRow[] {
  const rows: PlannedRow[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length === 1) {
      const only = run[0] as number;
      rows.push({ batch: false, event: events[only] as NewRunEvent, atMs: atMs[only] as number });
    } else if (run.length > 1) {
      const rowAtMs = atMs[run[0] as number] as number;
      const entries = run.map((index) => entryOf(runId, events[index] as NewRunEvent, atMs[index] as number, rowAtMs));
      rows.push({ batch: true, dataJson: `[${entries.join(",")}]`, count: run.length, atMs: rowAtMs });
    }
    run = [];
  };
  events.forEach((event, index) => {
    if (!batchable(event)) {
      flush();
      rows.push({ batch: false, event, atMs: atMs[index] as number });
      return;
    }
    run.push(index);
    if (run.length === MAX_BATCH_EVENTS) flush();
  });
  flush();
  return rows;
}

/** The events of a batch row whose last event is `lastSeq`, made at `createdAtMs` unless said. */
export function readBatch(dataJson: string, lastSeq: number, createdAtMs: number): BatchedEvent[] {
  const entries = JSON.parse(dataJson) as Record<string, unknown>[];
  if (!Array.isArray(entries)) throw new Error(`run event batch ${lastSeq}: not a list`);
  const first = lastSeq - entries.length + 1;
  return entries.map((entry, index) => {
    const seq = first + index;
    const at = typeof entry.t === "number" ? entry.t : createdAtMs;
    if (typeof entry.h === "number") return { seq, kind: "history.item", history_seq: entry.h, created_at_ms: at };
    const kind = KINDS_BY_CODE[String(entry.k)];
    if (kind === undefined || typeof entry.r !== "string") throw new Error(`run event ${seq}: an unknown batch entry`);
    const snapshot = entry.s === undefined ? null : snapshotText(entry.s, at);
    return { seq, kind, ref_id: entry.r, snapshot_json: snapshot, created_at_ms: at };
  });
}
