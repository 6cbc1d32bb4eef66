/**
 * bench/scale case: idle server CPU with 0 / 100 / 1,000 open run event streams, on SQLite and
 * PostgreSQL. A `toolhost serve` child process gets one scripted run waiting for its tool call (so
 * its streams stay open) and N streams on it from this process, each checked to have answered 200
 * and sent the run's first events; then nothing happens for a window while the server's CPU is read
 * from /proc. Streams are woken by commits, not polls (docs/runs.md#the-event-stream), so the target
 * is a flat curve: 1,000 streams within 2× of none. A failure is a correctness mismatch (a stream
 * refused or silent), never a missed target.
 */

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { fixed, markdownTable } from "../../lib/markdown.mjs";
import { cpuSplit, readCpu } from "../../protocol/cpu.mjs";
import { HttpConnection } from "../../protocol/http-connection.mjs";
import { startToolhost } from "../../protocol/server-process.mjs";
import { buildWorld } from "../../protocol/world.mjs";

const POSTGRES_URL = process.env.TOOLHOST_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const STREAM_COUNTS = [0, 100, 1_000];

/** Opens one stream on 127.0.0.1; resolves once it answered 200 and sent its first event (or with the problem). */
function openStream(url, runId, key) {
  return new Promise((resolve) => {
    const request = http.get(
      `${url}/v1/runs/${runId}/events`,
      { agent: false, headers: { authorization: `Bearer ${key}` } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          resolve({ problem: `answered ${response.statusCode}`, request });
          return;
        }
        let text = "";
        const onData = (chunk) => {
          text += chunk;
          if (text.includes("id: 1\n")) {
            response.off("data", onData);
            resolve({ problem: undefined, request });
          }
        };
        response.setEncoding("utf8");
        response.on("data", onData);
      },
    );
    request.on("error", (error) => resolve({ problem: error.message, request }));
    request.setTimeout(30_000, () => resolve({ problem: "no first event within 30 s", request }));
  });
}

async function postgresProblem() {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** One server per dialect; each stream count in turn on it. Answers rows `{ streams, server }` (cores). */
async function runDialect(dialect, windowMs, log, failures) {
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-idle-streams-"));
  const key = `bench-${randomBytes(16).toString("hex")}`;
  let databaseUrl = `sqlite:${join(dir, "bench.db")}`;
  let schema;
  if (dialect === "postgres") {
    const problem = await postgresProblem();
    if (problem !== undefined) {
      log(`PostgreSQL at ${POSTGRES_URL} does not answer (${problem}): skipped`);
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    schema = `bench_${randomBytes(6).toString("hex")}`;
    databaseUrl = `${POSTGRES_URL}${POSTGRES_URL.includes("?") ? "&" : "?"}schema=${schema}`;
  }
  const server = await startToolhost({
    databaseUrl,
    env: {
      TOOLHOST_BOOTSTRAP_KEY: key,
      TOOLHOST_LOG_LEVEL: "warn",
      TOOLHOST_MAX_EVENT_STREAMS: "2000",
      TOOLHOST_MAX_EVENT_STREAMS_PER_KEY: "2000",
    },
    logFile: join(dir, "server.log"),
  });
  const rows = [];
  try {
    const world = await buildWorld(server.url, key);
    const producer = new HttpConnection(server.url, world.producerKey);
    const created = await producer.request("POST", `/v1/sessions/${world.sessionId}/runs`, '{"input":"idle"}');
    producer.close();
    if (created.status !== 201) throw new Error(`creating the run answered ${created.status}`);
    const runId = JSON.parse(created.text).run_id;
    for (const count of STREAM_COUNTS) {
      const opened = [];
      for (let start = 0; start < count; start += 100) {
        const batch = Math.min(100, count - start);
        opened.push(...(await Promise.all(Array.from({ length: batch }, () => openStream(server.url, runId, key)))));
      }
      const refused = opened.filter((stream) => stream.problem !== undefined);
      if (refused.length > 0) {
        failures.push(`${dialect}: ${refused.length} of ${count} streams failed (${refused[0]?.problem})`);
      }
      // Settle, then read the server's CPU over an idle window.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = readCpu(server.pid, false);
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      // The server process only: PostgreSQL's backends come and go, so their sum is not comparable per window.
      const split = cpuSplit(before, readCpu(server.pid, false));
      rows.push({ streams: count, server: split.server });
      log(`${dialect}: ${count} idle streams, server ${fixed((split.server ?? 0) * 100, 2)}% of a core`);
      for (const stream of opened) stream.request.destroy();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    await server.stop();
    if (schema !== undefined) await dropSchema(schema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * Idle server CPU per open stream count, both dialects.
 * @param {{ quick: boolean, log: (line: string) => void }} context
 * @returns {Promise<{ markdown: string, failures: string[] }>}
 */
export async function run({ quick, log }) {
  const windowMs = quick ? 2_000 : 10_000;
  const failures = [];
  const sections = ["### Idle event streams", ""];
  sections.push(
    `Server CPU (% of one core) over ${windowMs / 1000} s with N open \`GET /v1/runs/{id}/events\` on a run waiting for its tool call; nothing else happens. Target: 1,000 streams within 2× of none.`,
    "",
  );
  for (const dialect of ["sqlite", "postgres"]) {
    const rows = await runDialect(dialect, windowMs, log, failures);
    const label = dialect === "sqlite" ? "SQLite" : "PostgreSQL";
    if (rows === undefined) {
      sections.push(`${label}: skipped (PostgreSQL does not answer).`, "");
      continue;
    }
    const base = rows[0]?.server ?? 0;
    const largest = rows.at(-1)?.server ?? 0;
    sections.push(
      `**${label}**`,
      "",
      markdownTable(
        ["open streams", "server CPU"],
        rows.map((row) => [String(row.streams), `${fixed((row.server ?? 0) * 100, 2)}%`]),
      ),
      "",
      `1,000 streams / none: ${base > 0 ? `${fixed(largest / base, 2)}×` : "no CPU measured at none"}.`,
      "",
    );
  }
  return { markdown: sections.join("\n"), failures };
}
