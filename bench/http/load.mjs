/**
 * A bounded HTTP load generator for bench/http: `concurrency` keep-alive connections, each sending one
 * request after another for a fixed time, every latency recorded (first byte sent to last byte read).
 * Only for 127.0.0.1; the body is read and counted, not kept.
 */

import http from "node:http";

/**
 * @typedef {object} LoadCase
 * @property {string} name
 * @property {string} url         full URL of the request
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {Buffer | undefined} body
 * @property {number} expectStatus
 */

/**
 * @typedef {object} LoadResult
 * @property {number[]} latenciesMs  one per answered request, in completion order
 * @property {number} elapsedMs       wall time from the first request to the last answer
 * @property {number} errors          answers with another status, and failed requests
 * @property {string | undefined} firstError
 * @property {number} responseBytes   body bytes of the last answer
 */

/** Sends one request on `agent`; resolves with its status and body size. */
function send(agent, target, loadCase) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: loadCase.method,
        headers:
          loadCase.body === undefined
            ? loadCase.headers
            : { ...loadCase.headers, "content-length": loadCase.body.length },
      },
      (response) => {
        let bytes = 0;
        let head = "";
        response.on("data", (chunk) => {
          bytes += chunk.length;
          if (head.length < 300) head += chunk.toString("utf8", 0, Math.min(chunk.length, 300));
        });
        response.on("end", () => resolve({ status: response.statusCode, bytes, head }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(loadCase.body);
  });
}

/**
 * Runs `loadCase` with `concurrency` connections for `durationMs`.
 * @param {LoadCase} loadCase
 * @param {number} concurrency
 * @param {number} durationMs
 * @returns {Promise<LoadResult>}
 */
export async function runLoad(loadCase, concurrency, durationMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const target = new URL(loadCase.url);
  const latenciesMs = [];
  let errors = 0;
  let firstError;
  let responseBytes = 0;
  const start = performance.now();
  const deadline = start + durationMs;
  let last = start;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const answer = await send(agent, target, loadCase);
        const t1 = performance.now();
        last = Math.max(last, t1);
        if (answer.status === loadCase.expectStatus) {
          latenciesMs.push(t1 - t0);
          responseBytes = answer.bytes;
        } else {
          errors++;
          firstError ??= `HTTP ${answer.status}: ${answer.head}`;
        }
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
        last = Math.max(last, performance.now());
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return { latenciesMs, elapsedMs: last - start, errors, firstError, responseBytes };
}
