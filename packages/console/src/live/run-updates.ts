/**
 * How a run page learns that its run changed: through the run's event stream when the server has one
 * (`GET /v1/runs/{run_id}/events`, read with fetch so the key stays in a header), else by polling.
 * Events are used only as a signal to reload, so any event format works.
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
      try {
        const stream = await client.openStream(`/v1/runs/${encodeURIComponent(runId)}/events`, abort.signal);
        setMode("stream");
        const reader = stream.getReader();
        for (;;) {
          const { done } = await reader.read();
          if (done || stopped) break;
          onChange();
        }
      } catch {
        // The stream failed or closed: poll instead.
      }
      poll();
    });
    return () => {
      stopped = true;
      abort.abort();
      if (timer !== undefined) window.clearInterval(timer);
    };
  }, [client, runId, active, onChange]);
  return mode;
}
