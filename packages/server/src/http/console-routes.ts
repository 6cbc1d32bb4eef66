/**
 * The web console (packages/console, built by Vite) served at `/`, outside the API: its pages, each
 * answering the single-page app's `index.html`, and its hashed assets under `/assets/`. The files are
 * public (the console signs in with an API key it keeps in the browser); any other page path answers
 * index.html with 404 (the console's not-found page); `/v1` is untouched, so a wrong path there stays
 * a JSON 404. Without a build, `/` says how to make one.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyReply } from "fastify";
import type { RouteModule } from "./app.js";

/** The console's client-side routes; each answers `index.html` so that reloading a page works. */
export const CONSOLE_PAGES = ["/", "/schema", "/runs", "/runs/:run_id", "/executors"] as const;

/**
 * What the console may load: only its own scripts, styles and API (no inline script, no framing), so
 * that an injected string cannot run code next to the key in sessionStorage.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Paths that are never console pages: the API, the metrics, the console's own assets. */
const API_PATHS = /^\/(v1|metrics|assets)(\/|$)/;

/** Hashed asset names never change content, so browsers may keep them (a year). */
const ASSET_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>toolhost</title></head>
<body><h1>The toolhost console is not built</h1>
<p>Build it with <code>npm run build -w @toolhost/console</code> (<code>npm ci</code> builds it too), then reload.
The API is under <a href="/v1/openapi.json">/v1</a>.</p></body></html>
`;

function sendPage(reply: FastifyReply, body: string | undefined, status = 200): FastifyReply {
  reply
    .code(status)
    .header("content-security-policy", CONTENT_SECURITY_POLICY)
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "no-cache");
  if (body !== undefined) return reply.type("text/html; charset=utf-8").send(body);
  return reply.sendFile("index.html", { cacheControl: false });
}

/** What `consoleRoutes` uses of the app's services: the server option naming the console's build. */
export interface ConsoleRoutesServices {
  // Stated here rather than picked from the server options: those sit above this layer.
  readonly options: { readonly consoleDirectory: string | null };
}

/** Registers the console's pages and assets when `options.consoleDirectory` is set. */
export const consoleRoutes: RouteModule<ConsoleRoutesServices> = (app, { options }) => {
  const directory = options.consoleDirectory;
  if (directory === null) return;
  const config = { public: true };
  const schema = { hide: true };
  if (!existsSync(join(directory, "index.html"))) {
    app.get("/", { config, schema }, async (_request, reply) => sendPage(reply, NOT_BUILT_PAGE, 404));
    return;
  }
  // Only `reply.sendFile` from the plugin: its own routes would bypass the route guard's checks.
  app.register(fastifyStatic, { root: directory, serve: false });
  for (const page of CONSOLE_PAGES) {
    app.get(page, { config, schema }, async (_request, reply) => sendPage(reply, undefined));
  }
  // Any other page path answers index.html with 404, so the console shows its own not-found page; the
  // API, the metrics and missing assets keep their plain 404s.
  app.get("/*", { config: { ...config, fallback: true }, schema }, async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (API_PATHS.test(path)) return reply.callNotFound();
    return sendPage(reply, undefined, 404);
  });
  app.get<{ Params: { "*": string } }>("/assets/*", { config, schema }, async (request, reply) =>
    reply
      .header("x-content-type-options", "nosniff")
      .sendFile(`assets/${request.params["*"]}`, { maxAge: ASSET_MAX_AGE_MS, immutable: true }),
  );
};
