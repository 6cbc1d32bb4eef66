// A local HTTP server (node:http on 127.0.0.1) in front of a test server: it forwards every request,
// records it, and answers in the server's place whatever `override` says for the requests it picks —
// a proxy's HTML page, a body of the wrong shape, a refusal.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";

/** One request the proxy saw. */
export interface ProxiedRequest {
  readonly method: string;
  /** The path and query, as sent. */
  readonly path: string;
  readonly body: string;
}

/** An answer given in the server's place. */
export interface OverrideAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A started proxy. */
export interface AnswerProxy {
  readonly url: string;
  readonly requests: ProxiedRequest[];
  /** Decides per request: an answer in the server's place, or undefined to forward it. */
  override: (request: ProxiedRequest) => OverrideAnswer | undefined;
  close(): Promise<void>;
}

const proxies = new Set<AnswerProxy>();
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts a proxy to `targetUrl` that forwards everything until `override` says otherwise. */
export async function startAnswerProxy(targetUrl: string): Promise<AnswerProxy> {
  const server = createServer(async (request, response) => {
    const seen: ProxiedRequest = {
      method: request.method ?? "GET",
      path: request.url ?? "/",
      body: await bodyOf(request),
    };
    proxy.requests.push(seen);
    const answer = proxy.override(seen);
    if (answer !== undefined) {
      response.writeHead(answer.status, { "content-type": answer.contentType });
      response.end(answer.body);
      return;
    }
    try {
      const forwarded = await fetch(`${targetUrl}${seen.path}`, {
        method: seen.method,
        headers: {
          authorization: request.headers.authorization ?? "",
          ...(seen.body === "" ? {} : { "content-type": request.headers["content-type"] ?? "application/json" }),
        },
        body: seen.body === "" ? undefined : seen.body,
      });
      const text = await forwarded.text();
      response.writeHead(forwarded.status, { "content-type": forwarded.headers.get("content-type") ?? "text/plain" });
      response.end(text);
    } catch {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end("bad gateway");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: AnswerProxy = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    override: () => undefined,
    close: async () => {
      proxies.delete(proxy);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  proxies.add(proxy);
  return proxy;
}

/** A proxy's error page, answered with 200 (what broke the runner before). */
export const HTML_PAGE: OverrideAnswer = {
  status: 200,
  contentType: "text/html; charset=utf-8",
  body: "<!DOCTYPE html><html><head><title>Maintenance</title></head><body>Back soon.</body></html>",
};
