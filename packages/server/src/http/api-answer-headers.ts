/**
 * Headers on every `/v1` answer: `cache-control: no-store` (answers carry secrets — a new key's, a
 * grant — and tenant data, which no cache or browser history may keep) and
 * `x-content-type-options: nosniff` (an answer is never read as another type than it says). They are
 * set on the raw response when the request arrives, so every way out carries them: handlers, errors,
 * 404s, refusals before the body is read, and the hijacked event stream (whose own `writeHead` merges
 * with them).
 */

import type { App } from "./app.js";

/** The headers and their values. */
export const API_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/** True for a request URL of the API (`/v1` and below). */
export function isApiUrl(url: string): boolean {
  return url === "/v1" || url.startsWith("/v1/") || url.startsWith("/v1?");
}

/** Sets the headers on every answer to an API URL. */
export function installApiAnswerHeaders(app: App): void {
  const headers = Object.entries(API_ANSWER_HEADERS);
  app.addHook("onRequest", (request, reply, done) => {
    if (isApiUrl(request.url)) for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
