/**
 * One statement that loads everything a claim or a receipt decides on: the call with its run's facts,
 * the request's executor row and (receipts) the receipt already stored under the same ID. Inside a
 * PostgreSQL transaction it also locks the run and the call (`FOR UPDATE OF r, c`, run first: the lock
 * order of every flow that settles calls), so lock-run and load-call are one round trip. A settling
 * receipt also loads the run's whole row, which the run's progress then needs no second read for;
 * another receipt counts the call's stored `progress` receipts (the per-call limit, docs/protocol.md).
 */

import { RUN_STATUSES, type RunStatus } from "@toolhost/protocol";
import { type Selectable, sql } from "kysely";
import type { ExecutorsTable, ReceiptsTable, RunsTable, ToolCallsTable } from "../database-schema.js";
import { ReusableQuery } from "../engine/reusable-query.js";
import type { Db } from "../engine/store-context.js";
import { EXECUTOR_COLUMNS, executorFromRow } from "../executors/executor-row.js";
import { RUN_COLUMNS, runFromRow } from "../runs/run-row.js";
import { callFromRow } from "./call-row.js";
import type { CallContext, CallContextInput } from "./contract.js";
import { receiptFactsFromRow } from "./receipt-store.js";

/** The column of the progress count (kept apart from the call's columns). */
const PROGRESS_COUNT = "n_progress";

const RECEIPT_COLUMNS = [
  "call_id",
  "receipt_id",
  "seq",
  "run_id",
  "kind",
  "executor_id",
  "claim_id",
  "body_digest",
  "answer_json",
  "applied",
  "created_at_ms",
  "result_seq",
  "result_at",
  "result_from",
  "result_length",
] as const satisfies readonly (keyof ReceiptsTable)[];

/** The call, its run's facts and the executor row. */
function callWithExecutor(db: Db, runId: string, callId: string, executorId: string) {
  return db
    .selectFrom("runs as r")
    .innerJoin("tool_calls as c", "c.run_id", "r.run_id")
    .innerJoin("agent_versions as v", "v.agent_version", "r.agent_version")
    .leftJoin("executors as e", (join) => join.on("e.executor_id", "=", executorId))
    .selectAll("c")
    .select([
      "r.status as run_status",
      "r.agent_id as run_agent_id",
      "r.agent_version as run_agent_version",
      "r.subject as run_subject",
      "v.toolset_id as run_toolset_id",
      "v.toolset_version as run_toolset_version",
    ])
    .select(EXECUTOR_COLUMNS.map((column) => sql.ref(`e.${column}`).as(`e_${column}`)))
    .where("r.run_id", "=", runId)
    .where("c.call_id", "=", callId);
}

/**
 * A receipt's statement: also the stored receipt; `lock`: FOR UPDATE of the run, then the call;
 * `wholeRun`: also every column of the run (prefixed `w_`).
 */
function receiptQuery(lock: boolean, wholeRun: boolean) {
  return new ReusableQuery(
    (db: Db, runId: string, callId: string, executorId: string, claimId: string, receiptId: string) => {
      const query = callWithExecutor(db, runId, callId, executorId)
        .leftJoin("receipts as x", (join) =>
          join.onRef("x.call_id", "=", "c.call_id").on("x.claim_id", "=", claimId).on("x.receipt_id", "=", receiptId),
        )
        .select(RECEIPT_COLUMNS.map((column) => sql.ref(`x.${column}`).as(`x_${column}`)))
        .$if(wholeRun, (q) => q.select(RUN_COLUMNS.map((column) => sql.ref(`r.${column}`).as(`w_${column}`))))
        .$if(!wholeRun, (q) =>
          q.select((eb) =>
            eb
              .selectFrom("receipts as p")
              .select((count) => count.fn.countAll().as("n"))
              .whereRef("p.call_id", "=", "c.call_id")
              .where("p.kind", "=", "progress")
              .as(PROGRESS_COUNT),
          ),
        );
      return lock ? query.forUpdate(["r", "c"]) : query;
    },
  );
}

const CLAIM_QUERY = new ReusableQuery((db: Db, runId: string, callId: string, executorId: string) =>
  callWithExecutor(db, runId, callId, executorId),
);
const QUERIES = {
  receipt: receiptQuery(false, false),
  receiptLocked: receiptQuery(true, false),
  settle: receiptQuery(false, true),
  settleLocked: receiptQuery(true, true),
} as const;

/**
 * Which statement: a claim's (no receipt, no lock), a receipt's, a receipt's that locks, or the same
 * two of a settling receipt (the whole run too).
 */
export type CallContextKind = "claim" | keyof typeof QUERIES;

/**
 * Which part of the row a column belongs to (by its prefix: the executor's `e_`, the whole run's `w_`,
 * the stored receipt's `x_`, the run's facts `run_`, else the call's) and its name there. The columns
 * are the same for every row of a statement, so each name is split once.
 */
const PARTS = { call: 0, executor: 1, receipt: 2, run: 3, whole: 4 } as const;
const routes = new Map<string, readonly [number, string]>();

function routeOf(name: string): readonly [number, string] {
  const known = routes.get(name);
  if (known !== undefined) return known;
  const route: readonly [number, string] = name.startsWith("e_")
    ? [PARTS.executor, name.slice(2)]
    : name.startsWith("w_")
      ? [PARTS.whole, name.slice(2)]
      : name.startsWith("x_")
        ? [PARTS.receipt, name.slice(2)]
        : name.startsWith("run_") && name !== "run_id"
          ? [PARTS.run, name.slice(4)]
          : [PARTS.call, name];
  // The names are the statements' own columns (a fixed set), never a row's values.
  routes.set(name, route);
  return route;
}

/** Runs the statement on `db`. */
export async function loadCallContext(
  db: Db,
  dialect: "sqlite" | "postgres",
  kind: CallContextKind,
  input: CallContextInput,
): Promise<CallContext> {
  const row = (
    kind === "claim"
      ? await CLAIM_QUERY.takeFirst(dialect, db, input.run_id, input.call_id, input.executor_id)
      : await QUERIES[kind].takeFirst(
          dialect,
          db,
          input.run_id,
          input.call_id,
          input.executor_id,
          input.claim_id ?? "",
          input.receipt_id ?? "",
        )
  ) as Record<string, unknown> | undefined;
  if (row === undefined) return { target: undefined, executor: undefined, existing: undefined };
  // The row's parts, in the order of PARTS.
  const parts: Record<string, unknown>[] = [{}, {}, {}, {}, {}];
  const [call, executor, receipt, run, whole] = parts as [
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
  ];
  let progressReceipts: number | undefined;
  for (const name in row) {
    const value = row[name];
    if (name === PROGRESS_COUNT) {
      progressReceipts = Number(value);
      continue;
    }
    const [part, field] = routeOf(name);
    (parts[part] as Record<string, unknown>)[field] = value;
  }
  const status = String(run.status);
  if (!Object.hasOwn(RUN_STATUSES, status))
    throw new Error(`stored run ${input.run_id} has an unknown status ${status}`);
  // The row's columns are the tables' own (prefixed apart above), so the casts restate their types.
  return {
    target: {
      call: callFromRow(call as unknown as Selectable<ToolCallsTable>),
      run: {
        status: status as RunStatus,
        agent_id: String(run.agent_id),
        agent_version: String(run.agent_version),
        subject: String(run.subject),
        toolset_id: String(run.toolset_id),
        toolset_version: Number(run.toolset_version),
      },
    },
    executor:
      executor.executor_id == null ? undefined : executorFromRow(executor as unknown as Selectable<ExecutorsTable>),
    existing:
      receipt.receipt_id == null
        ? undefined
        : receiptFactsFromRow(receipt as unknown as Omit<Selectable<ReceiptsTable>, "body_text" | "body_grant">),
    ...(whole.run_id == null ? {} : { run: runFromRow(whole as unknown as Selectable<RunsTable>) }),
    ...(progressReceipts === undefined ? {} : { progress_receipts: progressReceipts }),
  };
}
