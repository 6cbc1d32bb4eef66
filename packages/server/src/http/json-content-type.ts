/**
 * The only request body type: `application/json` in UTF-8. Every other content type (also
 * `text/plain`, which Fastify accepts by default) answers 415. The exact text stays on `request.rawBody`.
 */

import type { FastifyRequest } from "fastify";
import type { App } from "./app.js";
import { unsupportedMediaType } from "./error-answer.js";
import { readJsonBody } from "./json-body.js";

/** True when the Content-Type header names no charset or UTF-8. */
export function isUtf8ContentType(header: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header ?? "")?.[1]?.toLowerCase();
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}

/** Replaces Fastify's body parsers with the JSON one (body limit: the server's `bodyLimit`). */
export function registerJsonContentType(app: App): void {
  app.removeAllContentTypeParsers();
  app.decorateRequest("rawBody", undefined);
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, async (request: FastifyRequest, body: Buffer) => {
    if (!isUtf8ContentType(request.headers["content-type"])) throw unsupportedMediaType();
    const parsed = readJsonBody(body, { keepLoneSurrogates: request.routeOptions.config.keepLoneSurrogates === true });
    request.rawBody = parsed?.text;
    return parsed?.value;
  });
}
