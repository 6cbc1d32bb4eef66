/**
 * While the app shuts down, every answer carries `Connection: close`: a request that was in flight
 * when shutdown began finishes normally and its keep-alive connection then ends, instead of holding
 * the shutdown open until the client's idle timeout.
 */

import type { App } from "./app.js";

/** Adds the hooks that end each connection after its answer once `app.close()` has begun. */
export function closeConnectionsOnShutdown(app: App): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
}
