/**
 * Answers requests Node's HTTP parser refused (broken request line or headers, headers too large)
 * with the same error body as everything else, then closes the connection.
 */

import type { Socket } from "node:net";
import type { ErrorBody } from "@toolhost/protocol";

/** Node's `clientError` listener: writes a 400 `bad_request` and closes the connection. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const message =
    error.code === "HPE_HEADER_OVERFLOW" ? "the request headers are too large" : "the HTTP request is malformed";
  const text = JSON.stringify({ error: { code: "bad_request", message } } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
