/**
 * `GET /v1/runs/{run_id}/events` (`runtime:read`): the run's event stream as server-sent events
 * (`event-stream.ts`), resumable with `Last-Event-ID`. The request stays open until the run ends,
 * so it is exempt from request timeouts. It also ends — the client resumes from its last ID — when
 * the server shuts down, when its key is revoked (here or on another instance), after
 * `eventStreamMaxMs`, and when its client falls behind. At most `maxEventStreamsPerKey` streams per
 * key and `maxEventStreams` in all are open (`open-event-streams.ts`). Closing it changes nothing stored.
 */

import { TERMINAL_RUN_STATUSES } from "@toolhost/protocol";
import { RunEventsHeaders, RunIdParams } from "@toolhost/protocol/wire";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import type { KeyRevocations } from "../auth/key-revocations.js";
import { identityOf } from "../auth/require-scope.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { CompiledServerOptions } from "../options.js";
import type { Storage } from "../storage/storage.js";
import { type EventSink, streamRunEvents } from "./event-stream.js";
import { OpenEventStreams } from "./open-event-streams.js";
import type { RunEventTails } from "./run-event-tails.js";

/** What `eventRoutes` uses of the app's services. */
export interface EventRoutesServices {
  readonly storage: Storage;
  readonly requireScope: RequireScope;
  readonly options: Pick<
    CompiledServerOptions,
    "eventHeartbeatMs" | "eventStreamMaxMs" | "maxEventStreams" | "maxEventStreamsPerKey"
  >;
  readonly runEventTails: RunEventTails;
  readonly keyRevocations: KeyRevocations;
}

/** Registers the events route. */
export const eventRoutes: RouteModule<EventRoutesServices> = (
  app,
  { storage, requireScope, options, runEventTails, keyRevocations },
) => {
  const open = new Set<AbortController>();
  const counted = new OpenEventStreams({ perKey: options.maxEventStreamsPerKey, total: options.maxEventStreams });
  // Streams end before the server waits for in-flight requests: shutdown is never held up by them.
  app.addHook("preClose", async () => {
    for (const controller of open) controller.abort();
  });
  app.get(
    "/v1/runs/:run_id/events",
    {
      config: { errorCodes: ["too_many_streams"] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "streamRunEvents",
        tags: ["runs"],
        summary: "Follow a run's events (server-sent events)",
        description:
          "A `text/event-stream` of the run's events, oldest first: `id:` increases per run, `event:` is " +
          "`run.status` (the run), `history.item` (`{seq, item}`, the item as stored), `tool_call.status` (the " +
          "call) or `model.request` (the request on record), `data:` is JSON. An event whose data exceeds 64 KiB " +
          "comes as a reference, `{seq, ref: {bytes, href}}` for a history item (`href` reads it from the history), " +
          "a run without `output` and `error` and with `ref` for a run. Send `Last-Event-ID` to resume after " +
          "an event. A `: heartbeat` comment comes after 15 s of silence; the stream ends after the run's terminal " +
          "`run.status`, and also when the key is revoked, after `eventStreamMaxMs` (15 min) or when the client " +
          "reads too slowly: resume it with `Last-Event-ID`. At most 32 streams per key and 1,000 per server " +
          "(by default) are open at once; beyond, 429 `too_many_streams` with `Retry-After`. Closing it never " +
          "changes the run (it is not a cancel).",
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
      const identity = identityOf(request);
      // The status alone: a run's input may be MiBs, and streams open by the dozen.
      const status = await storage.runs.getStatus(run_id, agentScopeOf(identity));
      if (status === undefined) throw notFoundError("run", run_id);
      const last = request.headers["last-event-id"];
      const afterSeq = typeof last === "string" ? Number(last) : 0;
      // Counted before anything is held; a refusal is an ordinary 429 answer.
      const release = counted.admit(identity.keyId);
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
      const unwatch = keyRevocations.watch(identity.keyId, stop);
      const maxAge = setTimeout(stop, options.eventStreamMaxMs);
      maxAge.unref();
      const sink: EventSink = {
        write: (text) => raw.write(text),
        unsentBytes: () => raw.writableLength,
        drained: () =>
          new Promise((resolve) => {
            if (controller.signal.aborted) return resolve();
            const done = (): void => {
              raw.off("drain", done);
              controller.signal.removeEventListener("abort", done);
              resolve();
            };
            raw.once("drain", done);
            controller.signal.addEventListener("abort", done, { once: true });
          }),
        end: () => raw.end(),
      };
      try {
        await streamRunEvents(
          { storage, tails: runEventTails },
          { heartbeatMs: options.eventHeartbeatMs },
          run_id,
          afterSeq,
          TERMINAL_RUN_STATUSES.has(status),
          sink,
          controller.signal,
        );
      } catch (error) {
        // Storage failed mid-stream: end it; the client resumes from its last ID.
        request.log.warn({ err: error, run_id }, "event stream ended by an error");
      } finally {
        release();
        clearTimeout(maxAge);
        unwatch();
        open.delete(controller);
        raw.off("close", stop);
        if (!raw.writableEnded) raw.end();
      }
    },
  );
};
