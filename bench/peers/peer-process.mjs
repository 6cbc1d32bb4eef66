/**
 * The load process of one peer (pg-boss, graphile-worker, BullMQ or Restate), forked by bench/peers
 * with an IPC channel: `node peer-process.mjs SYSTEM DATABASE_URL SCHEMA`. It sets the peer up (a
 * queue in its own schema or key prefix; for Restate its server and endpoint), answers
 * `{ type: "ready", processes }` (the other processes the peer runs on, whose CPU the suite reads
 * too), then runs what the suite asks — `throughput` (producers and N workers, enqueue → fetch →
 * complete; for Restate N callers each keeping one invocation in flight), `wakeup` (idle wake-up
 * samples), `stop` — and answers each with its result. Statements are counted by
 * statement-counter.mjs, which answers `{ type: "statements" }`. For the queues the producers, the
 * workers and the queue library all run here; for Restate, the callers.
 */

import { startBullMq } from "./bullmq-peer.mjs";
import { startGraphileWorker } from "./graphile-worker-peer.mjs";
import { startPgBoss } from "./pg-boss-peer.mjs";
import { startRestate } from "./restate-peer.mjs";
import { statementCounts } from "./statement-counter.mjs";

const [system, databaseUrl, schema] = process.argv.slice(2);
/** Longest time the backlog may take to drain after a window. */
const DRAIN_TIMEOUT_MS = 30_000;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Producers keep a backlog of 2N + 4 jobs not yet completed (as bench/protocol does for toolhost runs);
 * completions are counted over the window after the warm-up, then the backlog drains.
 */
async function throughput(peer, { workers, warmupMs, measureMs }) {
  const backlog = 2 * workers + 4;
  const state = { created: 0, completed: 0, producing: true, waiting: [], failure: undefined };
  const wakeProducers = () => {
    for (const resolve of state.waiting.splice(0)) resolve();
  };
  const fail = (error) => {
    state.failure ??= error;
    state.producing = false;
    wakeProducers();
  };
  const stopWorkers = await peer.startWorkers(workers, {
    onComplete: () => {
      state.completed++;
      wakeProducers();
    },
  });
  const produce = async () => {
    while (state.producing) {
      if (state.created - state.completed >= backlog) {
        await new Promise((resolve) => state.waiting.push(resolve));
        continue;
      }
      state.created++;
      await peer.enqueue();
    }
  };
  const producers = Array.from({ length: Math.ceil(workers / 2) + 2 }, () => produce().catch(fail));
  await sleep(warmupMs);
  const start = { count: state.completed, at: performance.now() };
  await sleep(measureMs);
  const end = { count: state.completed, at: performance.now() };
  state.producing = false;
  wakeProducers();
  await Promise.all(producers);
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (state.completed < state.created && state.failure === undefined && performance.now() < deadline) {
    await sleep(10);
  }
  await stopWorkers();
  if (state.failure !== undefined) throw state.failure;
  return {
    cycles: end.count - start.count,
    elapsedMs: end.at - start.at,
    created: state.created,
    completed: state.completed,
  };
}

/**
 * Throughput of a peer answering each operation in one request (Restate): N callers, each with its own
 * connection and one invocation in flight; completions counted over the window after the warm-up, then
 * every caller finishes the invocation it has in flight.
 */
async function closedLoopThroughput(peer, { workers, warmupMs, measureMs }) {
  const state = { created: 0, completed: 0, running: true, failure: undefined };
  const caller = async () => {
    const connection = peer.connect();
    try {
      while (state.running) {
        state.created++;
        await peer.invoke(connection);
        state.completed++;
      }
    } catch (error) {
      state.failure ??= error;
      state.running = false;
    } finally {
      connection.close();
    }
  };
  const callers = Array.from({ length: workers }, () => caller());
  await sleep(warmupMs);
  const start = { count: state.completed, at: performance.now() };
  await sleep(measureMs);
  const end = { count: state.completed, at: performance.now() };
  state.running = false;
  await Promise.all(callers);
  if (state.failure !== undefined) throw state.failure;
  return {
    cycles: end.count - start.count,
    elapsedMs: end.at - start.at,
    created: state.created,
    completed: state.completed,
  };
}

/** Idle wake-ups of Restate: with nothing in flight, one invocation is sent; seen when its handler starts. */
async function invocationWakeups(peer, { samples }) {
  const wakeMs = [];
  let seen = () => undefined;
  peer.reportSeen(() => seen(performance.now()));
  const connection = peer.connect();
  try {
    for (let i = 0; i < samples; i++) {
      await sleep(15 + Math.random() * 10);
      const arrived = new Promise((resolve) => {
        seen = resolve;
      });
      const t0 = performance.now();
      const answered = peer.invoke(connection);
      wakeMs.push((await arrived) - t0);
      await answered;
    }
  } finally {
    connection.close();
    peer.reportSeen(undefined);
  }
  return { wakeMs };
}

/** Idle wake-ups: the worker waits with nothing queued; after 15–25 ms one job is enqueued. */
async function wakeups(peer, { samples }) {
  const wakeMs = [];
  let seen = () => undefined;
  const stopWorkers = await peer.startWorkers(1, { idle: true, onSeen: () => seen(performance.now()) });
  try {
    for (let i = 0; i < samples; i++) {
      await sleep(15 + Math.random() * 10);
      const arrived = new Promise((resolve) => {
        seen = resolve;
      });
      const t0 = performance.now();
      await peer.enqueue();
      wakeMs.push((await arrived) - t0);
    }
  } finally {
    await stopWorkers();
  }
  return { wakeMs };
}

const STARTERS = {
  "pg-boss": () => startPgBoss(databaseUrl, schema),
  "graphile-worker": () => startGraphileWorker(databaseUrl, schema),
  BullMQ: () => startBullMq(),
  Restate: () => startRestate(),
};

async function main() {
  const start = STARTERS[system];
  if (start === undefined) throw new Error(`unknown peer ${system}`);
  const peer = await start();
  // Restate answers an invocation in one request: it has no separate enqueue and fetch.
  const measureThroughput = peer.invoke === undefined ? throughput : closedLoopThroughput;
  const measureWakeups = peer.invoke === undefined ? wakeups : invocationWakeups;
  process.on("message", (message) => {
    const answer = (type, work) =>
      work.then(
        (result) => process.send({ type, result }),
        (error) => process.send({ type, error: error instanceof Error ? error.stack : String(error) }),
      );
    if (message?.type === "throughput") answer("throughput", measureThroughput(peer, message));
    else if (message?.type === "wakeup") answer("wakeup", measureWakeups(peer, message));
    else if (message?.type === "stop") {
      peer.stop().finally(() => {
        process.send({ type: "stopped", statements: { ...statementCounts } }, () => process.exit(0));
      });
    }
  });
  process.send({ type: "ready", processes: peer.processes?.() ?? [] });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
