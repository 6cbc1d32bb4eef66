/**
 * BullMQ as a peer, on the machine's Redis at 127.0.0.1:6379: one queue under its own key prefix; a
 * cycle is `Queue#add` → a `Worker` takes the job (its blocking fetch, woken by Redis) → the processor
 * returns a result, which BullMQ stores as the job's return value while moving it to completed. N workers
 * are one Worker's `concurrency`; completed jobs are trimmed to the last 1,000 so a long run keeps Redis
 * small. That Redis runs with `--save "" --appendonly no`: a job is in memory only, never written to disk
 * nor fsynced (bench/peers reads the server's `save` and `appendonly` settings and reports them).
 */

import { randomBytes } from "node:crypto";
import { Queue, Worker } from "bullmq";
import Redis from "ioredis";
import { listenerPid } from "./port-owner.mjs";
import { countRedisCommands } from "./statement-counter.mjs";

/** The Redis bench/peers uses: the machine's local one. */
export const REDIS = { host: "127.0.0.1", port: 6379 };
const QUEUE = "bench";
const PAYLOAD = { ask: "remind me to call the plumber tomorrow" };
const RESULT = { done: true };
/** Completed jobs kept (BullMQ keeps every one by default). */
const KEEP_COMPLETED = 1_000;

/**
 * Why BullMQ cannot run here (Redis does not answer), or its persistence settings when it can.
 * @returns {Promise<{ problem?: string, save?: string, appendonly?: string, pid?: number }>}
 */
export async function probeRedis() {
  const client = new Redis({ ...REDIS, lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const [, save] = await client.config("GET", "save");
    const [, appendonly] = await client.config("GET", "appendonly");
    return { save, appendonly, pid: listenerPid(REDIS.port) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  } finally {
    client.disconnect();
  }
}

/** Starts a BullMQ queue under a fresh prefix; answers the peer interface of peer-process.mjs. */
export async function startBullMq() {
  countRedisCommands(Redis);
  const connection = { ...REDIS, maxRetriesPerRequest: null };
  const prefix = `toolhost-bench-${randomBytes(6).toString("hex")}`;
  const queue = new Queue(QUEUE, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: { count: KEEP_COMPLETED } },
  });
  await queue.waitUntilReady();
  const redisPid = listenerPid(REDIS.port);
  return {
    processes: () => (redisPid === undefined ? [] : [{ role: "redis-server", pid: redisPid }]),
    enqueue: () => queue.add(QUEUE, PAYLOAD),
    async startWorkers(count, { onSeen = () => undefined, onComplete = () => undefined }) {
      const worker = new Worker(
        QUEUE,
        async () => {
          onSeen();
          return RESULT;
        },
        { connection, prefix, concurrency: count },
      );
      worker.on("completed", () => onComplete());
      worker.on("error", (error) => console.error(`bullmq worker: ${error.message}`));
      await worker.waitUntilReady();
      return () => worker.close();
    },
    async stop() {
      // Every key of this run goes, so the shared Redis keeps nothing of it.
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}
