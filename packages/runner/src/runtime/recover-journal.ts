/**
 * Recovery at start: after connecting (same executor ID), report every call the journal holds as
 * pending delivery or pending reconciliation, and follow the server's answers together with the
 * journal's own state (`planRecovery`): resend an `accepted` whose answer was lost, redeliver
 * unacknowledged receipts with the same IDs and bodies, reconcile write calls whose handler may have
 * run, run read calls again, and drop what is not this executor's any more. Only entries journaled
 * under this runner's executor ID are reported: another runner sharing the file reports its own (its
 * calls reported under this ID would be answered "not yours" and closed, a write that ran lost).
 */

import type { CallReport, ReportedCall } from "@toolhost/protocol/wire";
import { REPORT_CALLS_MAX } from "@toolhost/protocol/wire";
import { planRecovery, type RecoveryStep, reportedCallOf } from "../decisions/recovery-plan.js";
import { executorTrouble } from "../decisions/trouble-policy.js";
import { isTransientRefusal } from "../http/http-outcome.js";
import type { JournalEntry } from "../journal/journal-records.js";
import { acceptAndRun } from "./accept-and-run.js";
import { reconcileCall } from "./reconcile-call.js";
import { runHandler } from "./run-handler.js";
import type { RunnerRuntime } from "./runner-runtime.js";
import { sleep } from "./sleep.js";

/** Reports the journal and starts the recovery step of each entry (the steps run in the background). */
export async function recoverJournal(rt: RunnerRuntime): Promise<void> {
  const entries = rt.journal.entriesIn(["accepting", "running", "reconciling", "finishing"], rt.options.executorId);
  const reported: ReportedCall[] = [];
  for (const entry of entries) {
    const call = reportedCallOf(entry, rt.journal.receipts(entry.callId));
    if (call !== undefined) reported.push(call);
  }
  const answers = await reportAll(rt, reported);
  const steps: Record<string, number> = {};
  for (const entry of entries) {
    const step = planRecovery(entry, answers.get(entry.callId));
    steps[step.type] = (steps[step.type] ?? 0) + 1;
    applyStep(rt, entry, step);
  }
  rt.stats.add("recovered_calls", entries.length);
  if (entries.length > 0) rt.logger.info("recovered the journal", { reported: reported.length, steps });
  rt.events.emit("recovered", { reported: reported.length, steps });
}

/** Sends the report in pages; answers the server's report per call (missing when it could not be asked). */
async function reportAll(rt: RunnerRuntime, calls: readonly ReportedCall[]): Promise<Map<string, CallReport>> {
  const answers = new Map<string, CallReport>();
  const { options, client, logger, lifecycle } = rt;
  for (let start = 0; start < calls.length; start += REPORT_CALLS_MAX) {
    const page = calls.slice(start, start + REPORT_CALLS_MAX);
    while (!lifecycle.stopping) {
      const connection = await rt.connection.ensure(lifecycle.stopSignal);
      if (connection === null) return answers;
      const outcome = await client.report(options.executorId, connection.connectionId, page, lifecycle.stopSignal);
      if (outcome.type === "answer") {
        rt.watch.clear("report");
        for (const report of outcome.body.calls) answers.set(report.call_id, report);
        break;
      }
      if (outcome.type === "unreachable" && outcome.aborted) return answers;
      if (outcome.type === "refused") {
        const handled = await rt.connection.handleRefusal(connection.connectionId, outcome.code, lifecycle.stopSignal);
        if (handled === "reconnected" || handled === "stale") continue;
        if (handled === "fenced") return answers;
        if (!isTransientRefusal(outcome.status)) {
          logger.error("the server refused the journal report; those calls wait for the next start", {
            code: outcome.code,
            message: outcome.message,
          });
          break;
        }
      }
      const decision = rt.watch.report("report", executorTrouble(outcome));
      if (decision.fatal) return answers;
      await sleep(decision.delayMs, lifecycle.stopSignal);
    }
  }
  return answers;
}

/** Starts `step` for `entry`. */
function applyStep(rt: RunnerRuntime, entry: JournalEntry, step: RecoveryStep): void {
  const { journal, events, tasks, registry, slots, lifecycle } = rt;
  const { callId } = entry;
  const owned = (what: string, work: () => Promise<unknown>): void => {
    rt.busy.add(callId);
    tasks.track(what, async () => {
      try {
        await work();
      } finally {
        rt.busy.delete(callId);
      }
    });
  };
  switch (step.type) {
    case "resume_accept":
    case "rerun": {
      const registration = registry.get(entry.toolName);
      if (registration === undefined) {
        rt.logger.warn("a journaled call's tool is not registered; it waits for the next start", {
          callId,
          tool: entry.toolName,
        });
        return;
      }
      owned(`recovering call ${callId}`, async () => {
        const slot = await slots.acquire(entry.toolName, registration.maxConcurrency, lifecycle.stopSignal);
        if (slot === undefined) return;
        if (step.type === "resume_accept") return acceptAndRun(rt, callId, slot);
        rt.stats.add("handler_reruns");
        return runHandler(rt, entry, registration, slot);
      });
      return;
    }
    case "abandon":
      if (journal.abandon(callId, step.reason)) events.emit("abandoned", { callId, reason: step.reason });
      return;
    case "deliver":
      owned(`redelivering call ${callId}`, () => rt.delivery.deliverCall(callId));
      return;
    case "reconcile":
      owned(`reconciling call ${callId}`, () => reconcileCall(rt, callId, { sendUnknown: step.sendUnknown }));
      return;
    case "close":
      if (journal.transition(callId, { from: [entry.state], to: "done", reason: step.reason })) {
        rt.cancellations.forget(callId);
        events.emit("call_done", { callId, reason: step.reason });
      }
      return;
    case "wait":
      return;
  }
}
