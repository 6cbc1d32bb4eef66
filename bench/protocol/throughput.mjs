/**
 * Full cycles per second with N simulated executors. A cycle is one run: the producer creates it
 * (`POST /v1/sessions/{id}/runs`, whose scripted first turn emits one call), an executor finds the call
 * (long-poll pending), claims it, sends `accepted`, `progress` and `completed`, and that result ends the
 * run. Producers keep a bounded backlog of runs not yet completed (2N + 4, so no executor waits for
 * work and no queue grows without bound); completions are counted over a fixed window after a warm-up.
 * Afterwards the producers stop, the executors finish the backlog (every created run must complete)
 * and disconnect. Executors start at a random candidate of their page, so executors that polled at the
 * same moment spread over it; a lost claim race moves on to the next candidate.
 *
 * With `batchClaims` (bench/peers' batched case) each executor instead claims up to that many calls
 * with its long-poll (`pending?claim=N`) and settles them with two batched receipt requests (all the
 * `accepted`, then every `progress` and `completed`): three requests per batch instead of four per
 * call, the run creations unchanged.
 */

import { cpuSplit, readCpu } from "./cpu.mjs";
import { HttpConnection } from "./http-connection.mjs";
import { BenchMismatch, expectAnswer, SimExecutor } from "./sim-executor.mjs";

/** Concurrent run-creating connections for `executors` executors: enough that runs never run short. */
function producerCount(executors) {
  return Math.ceil(executors / 2) + 2;
}
/** Heartbeats every executor's lease this often (lease 15 s by default). */
const HEARTBEAT_EVERY_MS = 4_000;
/** Long-poll wait of the executors when the backlog is empty. */
const POLL_WAIT_MS = 1_000;
/** Longest time the backlog may take to drain after the window. */
const DRAIN_TIMEOUT_MS = 30_000;
/** Claims tried from one page of candidates before polling again. */
const CLAIM_TRIES = 4;

/**
 * Runs one case.
 * @param {{ url: string, world: import("./world.mjs").World, executors: number, warmupMs: number,
 *   measureMs: number, serverPid: number, postgres: boolean, label: string, log: (line: string) => void,
 *   batchClaims?: number }} input
 */
export async function runThroughput({
  url,
  world,
  executors: count,
  warmupMs,
  measureMs,
  serverPid,
  postgres,
  label,
  log,
  batchClaims,
}) {
  // Batched executors take up to `batchClaims` calls per poll: keep that many waiting for each.
  const backlog = batchClaims === undefined ? 2 * count + 4 : 2 * count * batchClaims;
  // The page size of packages/runner's default (50), or the whole backlog when that is smaller.
  const limit = Math.min(50, backlog);
  const state = {
    created: 0,
    completed: 0,
    lostClaims: 0,
    polls: 0,
    emptyPolls: 0,
    producing: true,
    working: true,
    failure: undefined,
    /** Producers waiting for the backlog to shrink. */
    waiting: [],
    wakeProducers() {
      for (const resolve of this.waiting.splice(0)) resolve();
    },
  };
  const fail = (error) => {
    state.failure ??= error;
    state.producing = false;
    state.working = false;
    state.wakeProducers();
  };
  const executors = Array.from(
    { length: count },
    (_, i) => new SimExecutor(url, world.executorKey, `bench-${label}-${count}-${i}`),
  );
  await Promise.all(executors.map((executor) => executor.connect(world.bindingId)));
  const control = new HttpConnection(url, world.executorKey);
  const heartbeats = setInterval(() => {
    for (const executor of executors) executor.heartbeat(control).catch(fail);
  }, HEARTBEAT_EVERY_MS);

  const workBatched = async (executor) => {
    while (state.working) {
      const held = await executor.pendingClaims(batchClaims, POLL_WAIT_MS);
      state.polls++;
      if (held.length === 0) {
        state.emptyPolls++;
        continue;
      }
      await executor.settleBatch(held);
      state.completed += held.length;
      state.wakeProducers();
    }
  };
  const work = async (executor) => {
    while (state.working) {
      const candidates = await executor.pending(limit, POLL_WAIT_MS);
      state.polls++;
      if (candidates.length === 0) state.emptyPolls++;
      // A random start spreads executors that polled at the same moment over the page.
      const start = Math.floor(Math.random() * candidates.length);
      for (let k = 0; k < Math.min(CLAIM_TRIES, candidates.length) && state.working; k++) {
        const candidate = candidates[(start + k) % candidates.length];
        const held = await executor.claim(candidate);
        if (held === undefined) {
          state.lostClaims++;
          continue;
        }
        await executor.settle(candidate, held);
        state.completed++;
        state.wakeProducers();
        break;
      }
    }
  };
  const produce = async () => {
    const connection = new HttpConnection(url, world.producerKey);
    const body = '{"input":{"ask":"remind me to call the plumber tomorrow"}}';
    try {
      while (state.producing) {
        if (state.created - state.completed >= backlog) {
          await new Promise((resolve) => state.waiting.push(resolve));
          continue;
        }
        state.created++;
        const answer = await connection.request("POST", `/v1/sessions/${world.sessionId}/runs`, body);
        const run = expectAnswer("create run", answer, 201);
        if (run.status !== "waiting_for_tools") throw new BenchMismatch(`a new run is ${run.status}`);
      }
    } finally {
      connection.close();
    }
  };
  const workers = executors.map((executor) => (batchClaims === undefined ? work : workBatched)(executor).catch(fail));
  // Batched executors drain runs faster than the per-call producers create them.
  const producerTotal = batchClaims === undefined ? producerCount(count) : 2 * producerCount(count);
  const producers = Array.from({ length: producerTotal }, () => produce().catch(fail));

  await sleep(warmupMs);
  const startCount = state.completed;
  const startPolls = { polls: state.polls, empty: state.emptyPolls, lost: state.lostClaims };
  const startCpu = readCpu(serverPid, postgres);
  const perSecond = [];
  let last = state.completed;
  const ticker = setInterval(() => {
    perSecond.push(state.completed - last);
    last = state.completed;
  }, 1000);
  await sleep(measureMs);
  const endCpu = readCpu(serverPid, postgres);
  const endCount = state.completed;
  clearInterval(ticker);
  const elapsedMs = endCpu.atMs - startCpu.atMs;
  const cycles = endCount - startCount;
  const window = {
    polls: state.polls - startPolls.polls,
    emptyPolls: state.emptyPolls - startPolls.empty,
    lostClaims: state.lostClaims - startPolls.lost,
  };
  log(
    `${label}, ${count} executor(s): ${cycles} cycles in ${(elapsedMs / 1000).toFixed(1)} s = ${((cycles * 1000) / elapsedMs).toFixed(1)}/s; draining the backlog`,
  );

  // Drain: no new runs; every created run must complete.
  state.producing = false;
  state.wakeProducers();
  await Promise.all(producers);
  const drainDeadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (state.completed < state.created && state.failure === undefined && performance.now() < drainDeadline) {
    await sleep(20);
  }
  const drained = state.completed === state.created;
  state.working = false;
  await Promise.all(workers);
  clearInterval(heartbeats);
  for (const executor of executors) await executor.disconnect().catch(fail);
  control.close();
  if (state.failure !== undefined && !(state.failure instanceof BenchMismatch)) throw state.failure;
  const failures = [];
  if (state.failure !== undefined) failures.push(`${label}, ${count} executors: ${state.failure.message}`);
  else if (!drained) {
    failures.push(`${label}, ${count} executors: ${state.created - state.completed} created runs never completed`);
  }
  return {
    executors: count,
    cycles,
    elapsedMs,
    cyclesPerSecond: (cycles * 1000) / elapsedMs,
    perSecond,
    created: state.created,
    ...window,
    cpu: cpuSplit(startCpu, endCpu),
    failures,
  };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
