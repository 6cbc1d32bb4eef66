/**
 * The crash harness's verdict, from the stores themselves once every process has stopped: the server's
 * SQLite file (calls and the exact receipts it stored), the product's ledger (every side effect, never
 * de-duplicated) and each executor's journal. Violations are listed by name; an empty list is the proof.
 */

import Database from "better-sqlite3";

const FINAL = new Set(["completed", "failed", "cancelled", "expired"]);
const TERMINAL_KINDS = new Set(["completed", "failed", "cancelled"]);

/** A receipt body stored without its envelope (the server's 0022), whole again; `grant` NULL: stored whole. */
function withEnvelope(text, grant, row) {
  if (grant === null) return text;
  const q = JSON.stringify;
  const bytes = Buffer.from(grant);
  if (bytes.length === 33 && bytes[0] === 1) {
    const g = bytes.subarray(1).toString("base64url");
    return `{"receipt_id":${q(row.receipt_id)},"executor_id":${q(row.executor_id)},"claim_id":${q(row.claim_id)},"grant":"${g}","kind":${q(row.kind)}${text}`;
  }
  if (bytes.length !== 32) throw new Error(`body_grant of ${bytes.length} bytes`);
  const g = bytes.toString("base64url");
  return `{"executor_id":${q(row.executor_id)},"claim_id":${q(row.claim_id)},"grant":"${g}","receipt_id":${q(row.receipt_id)},"kind":${q(row.kind)}${text}`;
}

function readOnly(path) {
  return new Database(path, { readonly: true, fileMustExist: true });
}

/** Reads every store and checks the invariants; answers counts and violations. */
export function checkStores({ serverDbPath, ledgerPath, journalPaths }) {
  const server = readOnly(serverDbPath);
  const calls = server.prepare("SELECT call_id, run_id, status, executor_id FROM tool_calls").all();
  // A completed body stored without the result text its history item holds (the server's 0017) is
  // put back together from that item, and a body stored without its envelope (0022) gets it back from
  // the row's columns and `body_grant`, as the server's receipt store reads them.
  const receipts = server
    .prepare(
      `SELECT r.call_id, r.receipt_id, r.kind, r.executor_id, r.claim_id, r.body_text, r.body_grant, r.applied,
         r.result_at, r.result_from, r.result_length, h.item_json FROM receipts r
       LEFT JOIN execution_history h ON h.run_id = r.run_id AND h.seq = r.result_seq
       ORDER BY r.call_id, r.seq`,
    )
    .all()
    .map(({ result_at, result_from, result_length, item_json, body_grant, executor_id, claim_id, ...receipt }) => {
      const text =
        result_at === null
          ? receipt.body_text
          : receipt.body_text.slice(0, result_at) +
            item_json.slice(result_from, result_from + result_length) +
            receipt.body_text.slice(result_at);
      return { ...receipt, body_text: withEnvelope(text, body_grant, { ...receipt, executor_id, claim_id }) };
    });
  const runs = server.prepare("SELECT status, COUNT(*) AS n FROM runs GROUP BY status").all();
  server.close();
  const ledger = readOnly(ledgerPath);
  const effects = ledger.prepare("SELECT * FROM effects ORDER BY effect_id").all();
  ledger.close();

  const receiptsByCall = groupBy(receipts, (receipt) => receipt.call_id);
  const effectsByCall = groupBy(effects, (effect) => effect.call_id);
  const violations = [];
  const statuses = {};
  const counts = {
    calls: calls.length,
    effects: effects.length,
    effectsCompletedDirectly: 0,
    effectsResolvedByReconciliation: 0,
    callsWithoutEffect: 0,
    callsWithoutEffectResolvedByReconciliation: 0,
    reconciliationReceipts: 0,
    duplicateEffects: 0,
    lostFinalReceipts: 0,
    phantomCompletions: 0,
    appliedTwice: 0,
    unsettledCalls: 0,
    journalEntriesOpen: 0,
    journalReceiptsPending: 0,
  };

  for (const call of calls) {
    statuses[call.status] = (statuses[call.status] ?? 0) + 1;
    const own = receiptsByCall.get(call.call_id) ?? [];
    const callEffects = effectsByCall.get(call.call_id) ?? [];
    const terminal = own.filter((receipt) => TERMINAL_KINDS.has(receipt.kind));
    const unknown = own.some((receipt) => receipt.kind === "reconciliation_required");
    if (unknown) counts.reconciliationReceipts++;
    if (!FINAL.has(call.status)) {
      counts.unsettledCalls++;
      violations.push(`call ${call.call_id} ended ${call.status}, not final`);
    }
    if (terminal.length > 1 || own.filter((r) => r.kind === "completed" && r.applied === 1).length > 1) {
      counts.appliedTwice++;
      violations.push(`call ${call.call_id} has ${terminal.length} terminal receipts`);
    }
    if (callEffects.length > 1) {
      counts.duplicateEffects++;
      violations.push(`call ${call.call_id} has ${callEffects.length} side effects`);
    }
    const effect = callEffects[0];
    const completed = terminal.find((receipt) => receipt.kind === "completed");
    if (effect === undefined) {
      counts.callsWithoutEffect++;
      if (unknown) counts.callsWithoutEffectResolvedByReconciliation++;
      if (completed !== undefined) {
        counts.phantomCompletions++;
        violations.push(`call ${call.call_id} is completed but no side effect exists`);
      }
      continue;
    }
    const result = completed === undefined ? undefined : JSON.parse(completed.body_text).result;
    if (
      call.status !== "completed" ||
      result?.effect_id !== effect.effect_id ||
      result?.operation_key !== effect.operation_key
    ) {
      counts.lostFinalReceipts++;
      violations.push(
        `call ${call.call_id}: effect ${effect.effect_id} has no completed receipt reporting it (status ${call.status})`,
      );
      continue;
    }
    if (unknown || result.reconciled === true) counts.effectsResolvedByReconciliation++;
    else counts.effectsCompletedDirectly++;
  }
  const callIds = new Set(calls.map((call) => call.call_id));
  for (const effect of effects) {
    if (!callIds.has(effect.call_id)) violations.push(`effect ${effect.effect_id} names an unknown call`);
  }

  for (const path of journalPaths) {
    const journal = readOnly(path);
    const open = journal
      .prepare("SELECT COUNT(*) AS n FROM assignments WHERE state IN ('accepting','running','reconciling','finishing')")
      .get().n;
    const pending = journal.prepare("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'").get().n;
    journal.close();
    counts.journalEntriesOpen += open;
    counts.journalReceiptsPending += pending;
    if (open > 0 || pending > 0)
      violations.push(`journal ${path}: ${open} open calls, ${pending} undelivered receipts`);
  }
  return { counts, statuses, runs: Object.fromEntries(runs.map((row) => [row.status, row.n])), violations };
}

/** Journal entries and receipts still open (for the convergence wait). */
export function journalBacklog(path) {
  try {
    const journal = readOnly(path);
    try {
      const open = journal
        .prepare(
          "SELECT COUNT(*) AS n FROM assignments WHERE state IN ('accepting','running','reconciling','finishing')",
        )
        .get().n;
      const pending = journal.prepare("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'").get().n;
      return open + pending;
    } finally {
      journal.close();
    }
  } catch {
    return 0;
  }
}

function groupBy(rows, key) {
  const groups = new Map();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [row]);
    else list.push(row);
  }
  return groups;
}
