/**
 * pg-boss (v10) as a peer: one queue in its own schema; a cycle is `send` → `fetch` → `complete`.
 * Throughput workers loop `fetch` (one job) and `complete` themselves, as a worker that wants the next
 * job at once does; the idle wake-up uses `work()` with its shortest polling interval (0.5 s), since
 * pg-boss has no push notification of new jobs.
 */

import PgBoss from "pg-boss";

const QUEUE = "bench";
const PAYLOAD = { ask: "remind me to call the plumber tomorrow" };
/** pg-boss's shortest `pollingIntervalSeconds`. */
const POLLING_INTERVAL_SECONDS = 0.5;
/** Pause of a throughput worker that found nothing (rare: the backlog is kept full). */
const EMPTY_FETCH_PAUSE_MS = 5;

/** Starts pg-boss on `databaseUrl` in `schema`; answers the peer interface of peer-process.mjs. */
export async function startPgBoss(databaseUrl, schema) {
  const boss = new PgBoss({ connectionString: databaseUrl, schema, max: 20 });
  boss.on("error", (error) => console.error(`pg-boss: ${error.message}`));
  await boss.start();
  await boss.createQueue(QUEUE);
  return {
    enqueue: () => boss.send(QUEUE, PAYLOAD),
    async startWorkers(count, { idle = false, onSeen = () => undefined, onComplete = () => undefined }) {
      if (idle) {
        // The wake-up case: pg-boss's own polling worker.
        const id = await boss.work(
          QUEUE,
          { pollingIntervalSeconds: POLLING_INTERVAL_SECONDS, batchSize: 1 },
          async () => onSeen(),
        );
        return () => boss.offWork({ id, wait: true });
      }
      let working = true;
      const loop = async () => {
        while (working) {
          const jobs = await boss.fetch(QUEUE);
          if (jobs.length === 0) {
            await new Promise((resolve) => setTimeout(resolve, EMPTY_FETCH_PAUSE_MS));
            continue;
          }
          onSeen();
          await boss.complete(QUEUE, jobs[0].id);
          onComplete();
        }
      };
      const loops = Array.from({ length: count }, () => loop());
      return async () => {
        working = false;
        await Promise.all(loops);
      };
    },
    stop: () => boss.stop({ graceful: true, wait: true }),
  };
}
