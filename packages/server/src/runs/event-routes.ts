/**
 * `GET /v1/runs/{run_id}/events` (`runtime:read`): the run's event stream as server-sent events
 * (`event-stream.ts`), resumable with `Last-Event-ID`. The request stays open until the run ends,
 * so it is exempt from request timeouts; it ends at once when the server shuts down (the client
 * resumes from its last ID). Closing it changes nothing stored.
 */

import { RunEventsHeaders, RunIdParams } from "@toolhost/protocol/wire";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { type EventSink, streamRunEvents } from "./event-stream.js";

/** Registers the events route. */
export const eventRoutes: RouteModule = (app, { storage, requireScope, options }) => {
  const open = new Set<AbortController>();
  // Streams end before the server waits for in-flight requests: shutdown is never held up by them.
  app.addHook("preClose", async () => {
    for (const controller of open) controller.abort();
  });
  app.get(
    "/v1/runs/:run_id/events",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "streamRunEvents",
        tags: ["runs"],
        summary: "Follow a run's events (server-sent events)",
        description:
          "A `text/event-stream` of the run's events, oldest first: `id:` increases per run, `event:` is " +
          "`run.status` (the run), `history.item` (`{seq, item}`, the item as stored), `tool_call.status` (the " +
          "call) or `model.request` (the request on record), `data:` is JSON. Send `Last-Event-ID` to resume after " +
          "an event. A `: heartbeat` comment comes after 15 s of silence; the stream ends after the run's terminal " +
          "`run.status`. Closing it never changes the run (it is not a cancel).",
        params: RunIdParams,
        headers: RunEventsHeaders,
        response: {
          200: {
            description: "The event stream (`text/event-stream`).",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { run_id } = request.params;
      const run = await storage.runs.get(run_id, agentScopeOf(identityOf(request)));
      if (run === undefined) throw notFoundError("run", run_id);
      const last = request.headers["last-event-id"];
      const afterSeq = typeof last === "string" ? Number(last) : 0;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      });
      raw.flushHeaders();
      const controller = new AbortController();
      open.add(controller);
      const stop = (): void => controller.abort();
      raw.on("close", stop);
      const sink: EventSink = {
        write: (text) => raw.write(text),
        drained: () =>
          new Promise((resolve) => {
            if (controller.signal.aborted) return resolve();
            raw.once("drain", resolve);
            controller.signal.addEventListener("abort", () => resolve(), { once: true });
          }),
        end: () => raw.end(),
      };
      try {
        await streamRunEvents(
          storage,
          { heartbeatMs: options.eventHeartbeatMs, pollIntervalMs: options.eventPollIntervalMs },
          run_id,
          afterSeq,
          sink,
          controller.signal,
        );
      } catch (error) {
        // Storage failed mid-stream: end it; the client resumes from its last ID.
        request.log.warn({ err: error, run_id }, "event stream ended by an error");
      } finally {
        open.delete(controller);
        raw.off("close", stop);
        if (!raw.writableEnded) raw.end();
      }
    },
  );
};
