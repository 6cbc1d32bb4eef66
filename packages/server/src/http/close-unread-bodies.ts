/**
 * An answer sent before its request's body has fully arrived — a 401, 403 or 404 decided from the
 * headers alone, a 413 — ends the connection. Otherwise Node keeps reading (and discarding) the rest
 * of the body to reuse the connection, and a client trickling a large body would hold the socket
 * after its refusal for as long as the request timeout allows.
 */

import type { App } from "./app.js";

/** Adds the hook that sends `Connection: close` with an answer whose request body is still arriving. */
export function closeConnectionsOfUnreadBodies(app: App): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    // `complete` turns true once the HTTP parser has the whole message (a request without a body
    // has it with its headers).
    if (!request.raw.complete) reply.header("connection", "close");
    done(null, payload);
  });
}
