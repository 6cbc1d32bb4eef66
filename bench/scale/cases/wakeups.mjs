/**
 * Wake-ups by waiting executors: server CPU per new call and the latency until the call's claim
 * reaches an executor, with 1 / 10 / 100 / 500 executors long-polling `pending?claim=1` on one
 * binding, both dialects. Runs are created one at a time (each makes one call); an executor that got
 * a claim settles it (batched receipts) and polls again. Server
 * CPU is the child process's utime + stime over the calls (/proc). Target: CPU per call at the most
 * executors within 2× of one executor (issue #19.2).
 */

import { markdownTable } from "../../lib/markdown.mjs";
import { readCpu } from "../../protocol/cpu.mjs";
import { HttpConnection } from "../../protocol/http-connection.mjs";
import { SimExecutor } from "../../protocol/sim-executor.mjs";
import { DIALECTS, quantile, startScaleServer } from "../scale-server.mjs";

/** Most a curve's largest case may cost, as a multiple of its smallest. */
const FLATNESS = 2;

/** One executor count on a running server: CPU ms per call and claim latencies. */
async function measure(server, executors, calls, log, label) {
  const arrived = new Map();
  const waiting = new Map();
  let stop = false;
  const sims = [];
  for (let i = 0; i < executors; i++) {
    const sim = new SimExecutor(server.url, server.world.executorKey, `w${executors}-${i}`);
    await sim.connect(server.world.bindingId);
    sims.push(sim);
  }
  const loops = sims.map(async (sim) => {
    while (!stop) {
      let claims;
      try {
        claims = await sim.pendingClaims(1, 30_000);
      } catch (error) {
        if (stop) return;
        throw error;
      }
      for (const { candidate } of claims) {
        const at = performance.now();
        const resolve = waiting.get(candidate.run_id);
        if (resolve === undefined) arrived.set(candidate.run_id, at);
        else resolve(at);
      }
      // Settled at once (accepted, then completed), so no claim of this case lapses into the next.
      if (claims.length > 0) await sim.settleBatch(claims);
    }
  });
  // Let every long-poll reach its wait.
  await new Promise((resolve) => setTimeout(resolve, 500 + executors * 4));
  const producer = new HttpConnection(server.url, server.world.producerKey);
  const latencies = [];
  const before = readCpu(server.pid, false);
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const created = await producer.request(
      "POST",
      `/v1/sessions/${server.world.sessionId}/runs`,
      '{"input":{"ask":"wake"}}',
    );
    if (created.status !== 201) throw new Error(`create run answered ${created.status}: ${created.text}`);
    const runId = JSON.parse(created.text).run_id;
    const at = arrived.get(runId) ?? (await new Promise((resolve) => waiting.set(runId, resolve)));
    latencies.push(at - started);
  }
  const after = readCpu(server.pid, false);
  stop = true;
  producer.close();
  for (const sim of sims) sim.connection.close();
  await Promise.allSettled(loops);
  const cpuPerCall = after.serverMs === undefined ? Number.NaN : (after.serverMs - before.serverMs) / calls;
  log(
    `${label}: ${executors} executors: ${cpuPerCall.toFixed(1)} ms server CPU per call, claim latency p50 ${quantile(latencies, 0.5).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );
  return { cpuPerCall, p50: quantile(latencies, 0.5), max: Math.max(...latencies) };
}

/** Runs the case on both dialects. */
export async function run({ quick, log }) {
  const counts = quick ? [1, 10, 100] : [1, 10, 100, 500];
  const calls = quick ? 20 : 100;
  const rows = [];
  const summary = [];
  for (const { dialect, label } of DIALECTS) {
    const server = await startScaleServer(dialect, log, { TOOLHOST_ACCEPT_WINDOW_MS: "600000" });
    if (server === undefined) continue;
    try {
      const results = [];
      for (const executors of counts) {
        const result = await measure(server, executors, calls, log, label);
        results.push(result);
        rows.push([label, executors, result.cpuPerCall.toFixed(1), result.p50.toFixed(1), result.max.toFixed(1)]);
      }
      const ratio = results[results.length - 1].cpuPerCall / results[0].cpuPerCall;
      summary.push(
        `- ${label}: CPU per call with ${counts[counts.length - 1]} executors is ${ratio.toFixed(2)}× that with 1 (target ≤ ${FLATNESS}×)`,
      );
      if (ratio > FLATNESS) log(`${label}: MISSED the flatness target (${ratio.toFixed(2)}×)`);
    } finally {
      await server.stop();
    }
  }
  const markdown = [
    "### Wake-ups by waiting executors",
    "",
    `Runs created one at a time (${calls} per case), executors long-polling \`pending?claim=1\`; server CPU per new call and the time from the create request to the claim reaching an executor.`,
    "",
    markdownTable(["dialect", "executors", "server CPU ms / call", "claim latency p50 ms", "max ms"], rows),
    "",
    ...summary,
    "",
  ].join("\n");
  return { markdown, failures: [] };
}
