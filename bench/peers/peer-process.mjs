/**
 * The load process of one peer queue (pg-boss or graphile-worker), forked by bench/peers with an IPC
 * channel: `node peer-process.mjs SYSTEM DATABASE_URL SCHEMA`. It sets the queue up in its own schema,
 * answers `{ type: "ready" }`, then runs what the suite asks — `throughput` (producers and N workers,
 * enqueue → fetch → complete), `wakeup` (idle wake-up samples), `stop` — and answers each with its
 * result. Statements are counted by statement-counter.mjs, which answers `{ type: "statements" }`.
 * The producers, the workers and the queue library all run here: this process is the peer's
 * "server" whose CPU the suite reads from /proc.
 */

import { startGraphileWorker } from "./graphile-worker-peer.mjs";
import { startPgBoss } from "./pg-boss-peer.mjs";
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

async function main() {
  const peer =
    system === "pg-boss" ? await startPgBoss(databaseUrl, schema) : await startGraphileWorker(databaseUrl, schema);
  process.on("message", (message) => {
    const answer = (type, work) =>
      work.then(
        (result) => process.send({ type, result }),
        (error) => process.send({ type, error: error instanceof Error ? error.stack : String(error) }),
      );
    if (message?.type === "throughput") answer("throughput", throughput(peer, message));
    else if (message?.type === "wakeup") answer("wakeup", wakeups(peer, message));
    else if (message?.type === "stop") {
      peer.stop().finally(() => {
        process.send({ type: "stopped", statements: { ...statementCounts } }, () => process.exit(0));
      });
    }
  });
  process.send({ type: "ready" });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
