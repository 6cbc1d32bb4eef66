/**
 * Installs the error answers on the app: the error handler, the 404/405 handler and the handler of
 * Fastify's framework errors all go through `errorAnswer`, so every error body has one shape.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { FastifyReply, FastifyRequest } from "fastify";
import { noteErrorCode } from "./answer-facts.js";
import type { App } from "./app.js";
import { type ErrorAnswerContext, errorAnswer } from "./error-answer.js";
import type { RouteTable } from "./route-table.js";

/** Sends the error answer for `error` (with the request's ID); unexpected errors are logged once, with their cause. */
export function sendError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  context: ErrorAnswerContext,
): FastifyReply {
  if (isClientGone(error, request)) {
    // Cut off by a timeout, or the client hung up mid-body: nobody is left to answer, and it is not
    // the server's fault (logging it as an internal error would let slow clients flood the log).
    request.log.info("the connection closed before the request had arrived");
    return reply;
  }
  const answer = errorAnswer(error, context);
  if (answer.internal) request.log.error({ err: error }, "internal error while handling a request");
  const body = { error: { ...answer.body.error, request_id: request.id } };
  noteErrorCode(request, answer.body.error.code);
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .header("content-type", "application/json; charset=utf-8")
    .send(body);
}

/** True when `error` is Node's "aborted": the request's connection closed while its body was being read. */
function isClientGone(error: unknown, request: FastifyRequest): boolean {
  return (
    error instanceof Error && (error as { code?: unknown }).code === "ECONNRESET" && request.raw.destroyed === true
  );
}

/** The answer for a request no route matched: 405 when the path exists with other methods, else 404. */
export function unmatchedRouteError(method: string, path: string, table: RouteTable): ProtocolError {
  const allowed = table.allowedMethods(path);
  if (allowed.length > 0 && !allowed.includes(method.toUpperCase())) {
    return new ProtocolError("method_not_allowed", `${method} is not allowed on ${path}`, undefined, {
      allowed_methods: allowed,
    });
  }
  return new ProtocolError("not_found", `no route ${method} ${path}`);
}

/** Routes every error of `app` through `sendError`. */
export function installErrorHandling(app: App, table: RouteTable, context: ErrorAnswerContext): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, context));
  // An unknown route answers 404/405 before its body is read: a bad or large body does not change that.
  app.addHook("onRequest", (request, _reply, done) => {
    if (request.is404) done(unmatchedRouteError(request.method, pathOf(request.url), table));
    else done();
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(unmatchedRouteError(request.method, pathOf(request.url), table), request, reply, context),
  );
}

function pathOf(url: string): string {
  return url.split("?", 1)[0] ?? "/";
}
