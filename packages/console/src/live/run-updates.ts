/**
 * How a run page learns that its run changed: through the run's event stream when the server has one
 * (`GET /v1/runs/{run_id}/events`, read with fetch so the key stays in a header), else by polling.
 * Events are used only as a signal to reload, so any event format works — a large event sent as a
 * reference (`{"ref":{"href":…}}`) too: the page reloads the run and its history, which hold it.
 * The server also ends a stream early (its 15-minute limit, a reader too slow): the page then resumes
 * it after the last `id:` it saw; a refused stream (429 `too_many_streams`, an outage) falls back to polling.
 */

import { useEffect, useState } from "react";
import type { ApiClient } from "../api/api-client.js";

/** How often a run is polled while no event stream is available. */
export const RUN_POLL_MS = 1000;

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

/** Calls `onChange` whenever the run may have changed, while `active`; answers how it follows it. */
export function useRunUpdates(client: ApiClient, runId: string, active: boolean, onChange: () => void): LiveMode {
  const [mode, setMode] = useState<LiveMode>("off");
  useEffect(() => {
    if (!active) {
      setMode("off");
      return;
    }
    let stopped = false;
    let timer: number | undefined;
    const abort = new AbortController();
    const poll = () => {
      if (stopped) return;
      setMode("poll");
      timer = window.setInterval(onChange, RUN_POLL_MS);
    };
    hasEventStream(client).then(async (available) => {
      if (stopped) return;
      if (!available) return poll();
      let lastEventId: string | undefined;
      try {
        for (;;) {
          const path = `/v1/runs/${encodeURIComponent(runId)}/events`;
          const stream = await client.openStream(path, abort.signal, lastEventId);
          setMode("stream");
          const reader = stream.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { done, value } = await reader.read();
            if (done || stopped) break;
            // An id split across chunks is missed: resuming from an earlier one only repeats reloads.
            for (const match of decoder.decode(value, { stream: true }).matchAll(/^id: (\d+)$/gm)) {
              lastEventId = match[1];
            }
            onChange();
          }
          if (stopped) return;
          // Ended by the server (run ended, or early): resume after a pause; an ended run stops `active` meanwhile.
          await new Promise((resolve) => window.setTimeout(resolve, RUN_POLL_MS));
          if (stopped) return;
        }
      } catch {
        // The stream was refused or failed: poll instead.
      }
      if (!stopped) poll();
    });
    return () => {
      stopped = true;
      abort.abort();
      if (timer !== undefined) window.clearInterval(timer);
    };
  }, [client, runId, active, onChange]);
  return mode;
}
