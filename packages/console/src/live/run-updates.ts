/**
 * How a run page learns that its run changed: through the run's event stream when the server has one
 * (`GET /v1/runs/{run_id}/events`, read by `@toolhost/client`'s `runEvents`, the key in a header),
 * else by polling. Events arriving together are handed over as one batch (the stream replays the
 * run's past events first), so the page applies them and refetches each changed part once.
 */

import { useEffect, useRef, useState } from "react";
import type { ApiClient } from "../api/api-client.js";
import type { StreamEvent } from "./run-changes.js";

/** How often a run is polled while no event stream is available. */
export const RUN_POLL_MS = 1000;

/** How long events are gathered into one batch. */
export const EVENT_BATCH_MS = 100;

/** The path of the run event stream in the OpenAPI document. */
const EVENTS_PATH = "/v1/runs/{run_id}/events";

/** How the page follows the run. */
export type LiveMode = "stream" | "poll" | "off";

let eventsAvailable: Promise<boolean> | undefined;

function hasEventStream(client: ApiClient): Promise<boolean> {
  eventsAvailable ??= client.apiPaths().then(
    (paths) => paths.has(EVENTS_PATH),
    () => false,
  );
  return eventsAvailable;
}

/**
 * While `active`: `onEvents(batch)` for each batch of stream events, or `onEvents(undefined)` on each
 * poll (anything may have changed). Answers how it follows the run.
 */
export function useRunUpdates(
  client: ApiClient,
  runId: string,
  active: boolean,
  onEvents: (events: StreamEvent[] | undefined) => void,
): LiveMode {
  const [mode, setMode] = useState<LiveMode>("off");
  const handler = useRef(onEvents);
  handler.current = onEvents;
  useEffect(() => {
    if (!active) {
      setMode("off");
      return;
    }
    let stopped = false;
    let timer: number | undefined;
    let flush: number | undefined;
    let batch: StreamEvent[] = [];
    const abort = new AbortController();
    const poll = () => {
      if (stopped) return;
      setMode("poll");
      timer = window.setInterval(() => handler.current(undefined), RUN_POLL_MS);
    };
    hasEventStream(client).then(async (available) => {
      if (stopped) return;
      if (!available) return poll();
      try {
        setMode("stream");
        for await (const event of client.runEvents(runId, abort.signal)) {
          if (stopped) return;
          batch.push(event);
          flush ??= window.setTimeout(() => {
            flush = undefined;
            const events = batch;
            batch = [];
            if (!stopped) handler.current(events);
          }, EVENT_BATCH_MS);
        }
        // The stream ended after the run's terminal status: nothing more will change but open calls.
      } catch {
        // The stream failed: poll instead.
      }
      if (!stopped) poll();
    });
    return () => {
      stopped = true;
      abort.abort();
      if (timer !== undefined) window.clearInterval(timer);
      if (flush !== undefined) window.clearTimeout(flush);
    };
  }, [client, runId, active]);
  return mode;
}
