/**
 * Answers requests Node's HTTP parser refused (broken request line or headers, headers too large) or
 * gave up on (headers or body still incomplete after the headers or request timeout) with the same
 * error body as everything else, then closes the connection.
 */

import type { Socket } from "node:net";
import type { ErrorBody } from "@toolhost/protocol";
import { newRequestId } from "./request-id.js";

/** The timeouts a 408 answer names. */
export interface RequestTimeouts {
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
}

/** Node's `clientError` listener for a server with `timeouts`: writes the error answer and closes the connection. */
export function clientErrorAnswerer(
  timeouts: RequestTimeouts,
): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // An answer already under way on this socket (say a 401 sent before the body arrived) cannot be
    // followed by another one: the connection just closes.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    const { status, body } = answerOf(error, timeouts);
    // The request never got as far as an ID of its own (its headers may be unreadable): a new one.
    const requestId = newRequestId();
    const text = JSON.stringify({ error: { ...body.error, request_id: requestId } });
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
    );
  };
}

function answerOf(error: Error & { code?: string }, timeouts: RequestTimeouts): { status: string; body: ErrorBody } {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    const message = `the request did not arrive in time (headers within ${timeouts.headersTimeoutMs} ms, all of it within ${timeouts.requestTimeoutMs} ms)`;
    return {
      status: "408 Request Timeout",
      body: {
        error: {
          code: "request_timeout",
          message,
          details: { headers_timeout_ms: timeouts.headersTimeoutMs, request_timeout_ms: timeouts.requestTimeoutMs },
        },
      },
    };
  }
  const message =
    error.code === "HPE_HEADER_OVERFLOW" ? "the request headers are too large" : "the HTTP request is malformed";
  return { status: "400 Bad Request", body: { error: { code: "bad_request", message } } };
}
