/**
 * graphile-worker as a peer: its own schema; a cycle is `addJob` → the runner's fetch (`get_job`,
 * woken by its LISTEN/NOTIFY) → the task → its completion. N workers are the runner's `concurrency`;
 * defaults otherwise (prepared statements on, no local queue, no completion batching).
 */

import { Logger, makeWorkerUtils, run } from "graphile-worker";

const TASK = "bench";
const PAYLOAD = { ask: "remind me to call the plumber tomorrow" };
const quiet = new Logger(() => () => undefined);

/** Starts graphile-worker's utilities on `databaseUrl` in `schema` (migrated); answers the peer interface. */
export async function startGraphileWorker(databaseUrl, schema) {
  const utils = await makeWorkerUtils({ connectionString: databaseUrl, schema, logger: quiet });
  await utils.migrate();
  return {
    enqueue: () => utils.addJob(TASK, PAYLOAD),
    async startWorkers(count, { onSeen = () => undefined, onComplete = () => undefined }) {
      const runner = await run({
        connectionString: databaseUrl,
        schema,
        concurrency: count,
        noHandleSignals: true,
        logger: quiet,
        taskList: { [TASK]: async () => undefined },
      });
      runner.events.on("job:start", () => onSeen());
      runner.events.on("job:complete", () => onComplete());
      return () => runner.stop();
    },
    stop: () => utils.release(),
  };
}
