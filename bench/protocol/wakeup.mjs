/**
 * Wake-up latency: one executor long-polls with nothing pending; a little later (15–25 ms, so the poll
 * is surely waiting on the server) the producer creates a run. The sample is the time from just before
 * `POST /v1/sessions/{id}/runs` is written to the socket until the executor has read the pending answer
 * naming that run's call: the run's transaction and commit, the wake-up, the candidates query and both
 * HTTP legs. The executor then settles the call (claim, accepted, completed) so nothing is pending for
 * the next sample, and heartbeats between samples.
 *
 * Afterwards the same pause precedes two requests that do next to nothing — `GET /v1/health` (no key,
 * no SQL) and an authenticated `GET /v1/sessions/{id}` (the key lookup; the session is cached) — to
 * show what any request costs on this machine after that pause: the floor under every wake-up.
 */

import { HttpConnection } from "./http-connection.mjs";
import { BenchMismatch, expectAnswer, SimExecutor } from "./sim-executor.mjs";

const HEARTBEAT_EVERY_MS = 4_000;

/**
 * Takes `samples` wake-up samples.
 * @returns {Promise<{ wakeMs: number[], createMs: number[], healthMs: number[], readMs: number[], failures: string[] }>}
 */
export async function measureWakeups({ url, world, samples, label, log }) {
  const executor = new SimExecutor(url, world.executorKey, `bench-${label}-wake`);
  await executor.connect(world.bindingId);
  const producer = new HttpConnection(url, world.producerKey);
  const body = '{"input":{"ask":"remind me to call the plumber tomorrow"}}';
  const wakeMs = [];
  const createMs = [];
  const healthMs = [];
  const readMs = [];
  const failures = [];
  let lastHeartbeat = performance.now();
  let lastReport = performance.now();
  try {
    // Nothing may be pending: the pending answer must be woken by the run created below.
    const leftover = await executor.pending(10, 0);
    if (leftover.length > 0) throw new BenchMismatch(`${leftover.length} calls were pending before the wake-ups`);
    for (let i = 0; i < samples; i++) {
      const poll = executor.pending(10, 30_000);
      await sleep(15 + Math.random() * 10);
      const t0 = performance.now();
      const created = producer.request("POST", `/v1/sessions/${world.sessionId}/runs`, body);
      const candidates = await poll;
      const t1 = performance.now();
      const run = expectAnswer("create run", await created, 201);
      const t2 = performance.now();
      if (candidates.length !== 1 || candidates[0].run_id !== run.run_id) {
        throw new BenchMismatch(
          `the woken pending answer did not name the new run's call: ${JSON.stringify(candidates)}`,
        );
      }
      wakeMs.push(t1 - t0);
      createMs.push(t2 - t0);
      const held = await executor.claim(candidates[0]);
      if (held === undefined) throw new BenchMismatch("the only executor lost a claim");
      await executor.settle(candidates[0], held, false);
      if (performance.now() - lastHeartbeat > HEARTBEAT_EVERY_MS) {
        await executor.heartbeat(executor.connection);
        lastHeartbeat = performance.now();
      }
      if (performance.now() - lastReport > 2_000) {
        lastReport = performance.now();
        log(`${label} wake-ups: ${i + 1}/${samples}`);
      }
    }
    for (let i = 0; i < samples; i++) {
      healthMs.push(await timedAfterPause(producer, "/v1/health", "health"));
      readMs.push(await timedAfterPause(producer, `/v1/sessions/${world.sessionId}`, "read a session"));
    }
  } catch (error) {
    if (!(error instanceof BenchMismatch)) throw error;
    failures.push(`${label} wake-ups: ${error.message}`);
  } finally {
    producer.close();
    await executor.disconnect().catch(() => undefined);
  }
  return { wakeMs, createMs, healthMs, readMs, failures };
}

/** One GET after the wake-ups' idle pause: its latency in milliseconds (the answer must be 200). */
async function timedAfterPause(connection, path, what) {
  await sleep(15 + Math.random() * 10);
  const t0 = performance.now();
  const answer = await connection.request("GET", path);
  const elapsed = performance.now() - t0;
  expectAnswer(what, answer, 200);
  return elapsed;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
