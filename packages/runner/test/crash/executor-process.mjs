/**
 * The crash product: an executor process built on ToolRunner whose `ledger.write` handler applies one
 * side effect to the shared ledger (no de-duplication) and whose resolver looks the operation key up
 * there. Configured by environment; when CRASH_KILL_POINT is set it SIGKILLs itself the
 * CRASH_KILL_AFTER-th time that point is reached. SIGTERM stops it gracefully (runner.stop()).
 */

import { writeFileSync } from "node:fs";
import { ToolRunner } from "@toolhost/runner";
import { countsFor, KILL_POINTS } from "./kill-points.mjs";
import { openLedger } from "./ledger.mjs";

const env = process.env;
const executorId = env.CRASH_EXECUTOR_ID ?? "crash-exec";
const ledger = openLedger(env.CRASH_LEDGER_PATH ?? "ledger.db");
const runner = new ToolRunner({
  baseUrl: env.CRASH_SERVER_URL ?? "http://127.0.0.1:8080",
  apiKey: env.CRASH_API_KEY ?? "",
  executorId,
  bindingIds: [env.CRASH_BINDING_ID ?? "crash"],
  journalPath: env.CRASH_JOURNAL_PATH ?? "journal.db",
  maxConcurrencyPerTool: 4,
  pollWaitMs: 2_000,
  retryBackoffMinMs: 20,
  retryBackoffMaxMs: 500,
  requestTimeoutMs: 5_000,
  outboxSweepIntervalMs: 200,
  reconcileIntervalMs: 300,
  logger: env.CRASH_LOG_LEVEL ?? "warn",
});

runner.register(
  "ledger.write",
  (call, ctx) => {
    const args = call.arguments;
    const { effectId } = ledger.apply({
      operationKey: ctx.operationKey,
      callId: call.callId,
      runId: call.runId,
      executorId,
      amount: Number(args.amount ?? 0),
    });
    return { effect_id: effectId, operation_key: ctx.operationKey };
  },
  { effect: "write" },
);

runner.onReconcile("ledger.write", (_call, operationKey) => {
  const [effect] = ledger.effectsOf(operationKey);
  if (effect === undefined) {
    return { kind: "failed", error: { code: "not_applied", message: "the ledger has no effect for this operation" } };
  }
  return { kind: "completed", result: { effect_id: effect.effect_id, operation_key: operationKey, reconciled: true } };
});

/** Dies at `point`, leaving its name in the marker file (so the harness can count kills per point). */
function killAt(point) {
  if (env.CRASH_MARKER_PATH) writeFileSync(env.CRASH_MARKER_PATH, point);
  process.kill(process.pid, "SIGKILL");
}

const point = env.CRASH_KILL_POINT;
if (point !== undefined && point !== "" && point !== "none") {
  const spec = KILL_POINTS[point];
  if (spec === undefined) throw new Error(`unknown kill point ${point}`);
  let remaining = Number(env.CRASH_KILL_AFTER ?? "1");
  runner.on(spec.event, (payload) => {
    if (!countsFor(point, payload)) return;
    remaining--;
    if (remaining <= 0) killAt(point);
  });
}
if (env.CRASH_KILL_ON_RECONCILE === "1") {
  runner.on(KILL_POINTS.during_reconcile.event, () => killAt("during_reconcile"));
}

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await runner.stop();
  ledger.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

await runner.start();
process.stdout.write("started\n");
