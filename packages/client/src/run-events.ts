/**
 * `runEvents`: a run's event stream (`GET /v1/runs/{run_id}/events`, server-sent events) as an async
 * iterator, parsed by `eventsource-parser`. Each event's `data` is parsed JSON. When the stream ends
 * before the run's terminal `run.status` (a server restart, a proxy's idle cut, a server that ends
 * long streams on purpose), it reconnects with `Last-Event-ID`, so nothing is lost or repeated; it
 * gives up after `maxReconnects` reconnections in a row that brought no event. See docs/runs.md#the-event-stream.
 */

import { createParser, type EventSourceMessage } from "eventsource-parser";

/** One event of a run's stream. */
export interface RunEvent {
  /** The event's ID (`id:`): pass it as `lastEventId` to resume after it. */
  readonly id: string;
  /** `run.status`, `history.item`, `tool_call.status`, `model.request`, … */
  readonly event: string;
  /** The event's `data:`, parsed. */
  readonly data: unknown;
}

/** How to follow the stream. */
export interface RunEventsOptions {
  /** Resume after this event ID (default: from the first event). */
  readonly lastEventId?: string;
  /** Stops the iteration (the request is aborted; the iterator returns). */
  readonly signal?: AbortSignal;
  /** Reconnections in a row without a new event before giving up with an error (default 5). */
  readonly maxReconnects?: number;
}

/** What the helpers need of the client's options. */
export interface StreamTarget {
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: (input: Request) => Promise<Response>;
}

/** A refusal of the API (non-2xx), with its error body. */
export class ToolhostApiError extends Error {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The error body's `error.code`, when it had one. */
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "ToolhostApiError";
  }
}

/** The run statuses after which nothing changes. */
export const TERMINAL_RUN_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled", "expired"]);

/** Pause before a reconnection: the server may be restarting. */
const RECONNECT_DELAY_MS = 250;

/** The API's error as an exception (status, code and message of the body when it is one). */
export async function apiErrorOf(response: Response, what: string): Promise<ToolhostApiError> {
  const text = await response.text().catch(() => "");
  let code: string | undefined;
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    code = body.error?.code;
    message = body.error?.message ?? message;
  } catch {
    // Not JSON: the text is the message.
  }
  return new ToolhostApiError(response.status, code, `${what}: ${response.status} ${code ?? ""} ${message}`.trim());
}

/** Whether `event` is the run's terminal status. */
export function isTerminalStatus(event: RunEvent): boolean {
  const status = (event.data as { status?: unknown } | null)?.status;
  return event.event === "run.status" && typeof status === "string" && TERMINAL_RUN_STATUSES.has(status);
}

/** One connection: the events it delivered, as they arrive. */
async function* connectOnce(
  target: StreamTarget,
  runId: string,
  lastEventId: string | undefined,
  signal?: AbortSignal,
) {
  const headers: Record<string, string> = { ...target.headers, accept: "text/event-stream" };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  const url = `${target.baseUrl}/v1/runs/${encodeURIComponent(runId)}/events`;
  const response = await target.fetch(new Request(url, { headers, ...(signal === undefined ? {} : { signal }) }));
  if (!response.ok) throw await apiErrorOf(response, `GET /v1/runs/${runId}/events`);
  if (response.body === null) return;
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => queue.push(message) });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      while (queue.length > 0) {
        const message = queue.shift() as EventSourceMessage;
        yield { id: message.id ?? "", event: message.event ?? "message", data: JSON.parse(message.data) } as RunEvent;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The events of run `runId`, resumed across connection ends, until its terminal `run.status`. */
export async function* runEvents(target: StreamTarget, runId: string, options: RunEventsOptions = {}) {
  let lastEventId = options.lastEventId;
  let idle = 0;
  const maxReconnects = options.maxReconnects ?? 5;
  for (;;) {
    let delivered = false;
    try {
      for await (const event of connectOnce(target, runId, lastEventId, options.signal)) {
        delivered = true;
        if (event.id !== "") lastEventId = event.id;
        yield event;
        if (isTerminalStatus(event)) return;
      }
    } catch (error) {
      if (options.signal?.aborted === true) return;
      // A refusal is final; a cut connection is resumed below.
      if (error instanceof ToolhostApiError) throw error;
    }
    if (options.signal?.aborted === true) return;
    idle = delivered ? 0 : idle + 1;
    if (idle > maxReconnects) {
      throw new Error(`the event stream of run ${runId} ended ${idle} times in a row without an event`);
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS));
  }
}
