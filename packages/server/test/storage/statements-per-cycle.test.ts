/**
 * The hot path's statement budget: one tool-call cycle (create run → pending → claim → accepted →
 * progress → completed) against a real server, counting the statements each request sends to the
 * database (round trips on PostgreSQL, BEGIN/COMMIT/SAVEPOINT included). The counts are pinned per
 * request kind, so a change that adds a statement fails here; lower the table when a change saves one.
 * The API-key lookup of each request is counted too (it is part of what a request costs).
 */

import { expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import type { Dialect } from "../../src/storage/storage.js";
import { startExecutorServer } from "../executors/executor-harness.js";
import { BOOTSTRAP_SECRET, request } from "../http/http-harness.js";
import { describeEachDialect } from "../support/test-databases.js";

/** The request kinds of one cycle, in order. */
const KINDS = ["create_run", "pending", "claim", "accepted", "progress", "completed"] as const;
type Kind = (typeof KINDS)[number];

/**
 * Statements per request kind of a warm cycle (caches filled by a first cycle, the API key's identity
 * among them, and the executor's connection, which a poll on a connection this server found live
 * checks inside its own statement: live-connections.ts): SQLite 35, PostgreSQL 33 per cycle. `completed` is two transactions: the receipt's
 * (which marks the run ready: SQLite one more UPDATE, PostgreSQL inside the history append) and the
 * turn engine's (BEGIN, the run's lock, the scripted turn's request, run, history and events, COMMIT).
 */
const BUDGET: Record<Dialect, Record<Kind, number>> = {
  sqlite: { create_run: 8, pending: 1, claim: 2, accepted: 5, progress: 4, completed: 15 },
  postgres: { create_run: 8, pending: 1, claim: 2, accepted: 4, progress: 4, completed: 14 },
};

/**
 * Round trips per request kind on PostgreSQL, fewer than its statements: the pipelined driver sends
 * BEGIN with a transaction's first statement, and the writes no one waits for — a new run's rows, the
 * run events, the history append, a locked run's change, a receipt (their guards fail the transaction
 * when what they relied on changed meanwhile: stored-state-changed.ts) — with the next statement waited
 * for, at the latest COMMIT (postgres-pipelined-driver.ts): a run is created in one round trip. On
 * SQLite every statement is counted instead.
 */
const ROUND_TRIPS: Record<Dialect, Record<Kind, number>> = {
  sqlite: BUDGET.sqlite,
  postgres: { create_run: 1, pending: 1, claim: 2, accepted: 2, progress: 2, completed: 5 },
};

const SCRIPT = [
  { tool_calls: [{ name: "tasks.write", arguments: { title: "Call the plumber" } }] },
  { message: "Done." },
];

describeEachDialect("statements per cycle", (dialect) => {
  it("runs a warm cycle in the recorded number of statements per request", async () => {
    const server = await startExecutorServer(dialect, { seed: false, modelPollIntervalMs: 60_000 });
    // The server's storage is the Kysely one; its counters are not part of the Storage interface.
    const storage = server.server.storage as KyselyStorage;
    const post = async (key: string, path: string, body: unknown): Promise<Record<string, unknown>> => {
      const answer = await request(server.url, "POST", path, { key, body });
      if (answer.status !== 200 && answer.status !== 201) {
        throw new Error(`POST ${path} answered ${answer.status}: ${answer.text}`);
      }
      return answer.body;
    };
    const binding = await post(BOOTSTRAP_SECRET, "/v1/executor-bindings", { name: "cycle" });
    const bindingId = String(binding.binding_id);
    const toolset = await post(BOOTSTRAP_SECRET, "/v1/toolsets", {
      name: "cycle",
      tools: [
        {
          name: "tasks.write",
          description: "Writes a task.",
          binding_id: bindingId,
          input_schema: { type: "object", properties: { title: { type: "string" } } },
          max_result_context_bytes: 1024,
          effect: "write",
          timeout_ms: 600_000,
        },
      ],
    });
    const agent = await post(BOOTSTRAP_SECRET, "/v1/agents", { name: "cycle" });
    const version = await post(BOOTSTRAP_SECRET, `/v1/agents/${agent.agent_id}/versions`, {
      toolset_id: toolset.toolset_id,
      toolset_version: toolset.version,
      model: { provider: "scripted", script: SCRIPT },
    });
    const session = await post(BOOTSTRAP_SECRET, "/v1/sessions", {
      agent_version: version.agent_version,
      subject: "u",
    });
    const producer = String(
      (await post(BOOTSTRAP_SECRET, "/v1/keys", { name: "producer", scopes: ["runtime:write", "runtime:read"] })).key,
    );
    const executorKey = String(
      (await post(BOOTSTRAP_SECRET, "/v1/keys", { name: "executors", scopes: ["executors:connect", "tools:execute"] }))
        .key,
    );
    const executorId = "cycle-executor";
    const connected = await post(executorKey, "/v1/executors/connect", {
      executor_id: executorId,
      binding_ids: [bindingId],
    });
    const connectionId = String(connected.connection_id);

    const trips = {} as Record<Kind, number>;
    /** Runs `send` and answers the statements the storage sent meanwhile (its round trips go to `trips`). */
    const counted = async <T>(send: () => Promise<T>, kind: Kind): Promise<[number, T]> => {
      const before = storage.stats();
      const value = await send();
      const after = storage.stats();
      trips[kind] = after.roundTrips - before.roundTrips;
      return [after.statements - before.statements, value];
    };

    const cycle = async (n: number): Promise<Record<Kind, number>> => {
      const counts = {} as Record<Kind, number>;
      const [created, run] = await counted(
        () => post(producer, `/v1/sessions/${session.session_id}/runs`, { input: { ask: "call the plumber" } }),
        "create_run",
      );
      counts.create_run = created;
      expect(run.status).toBe("waiting_for_tools");
      const [polled, pending] = await counted(
        () =>
          request(server.url, "GET", `/v1/executors/${executorId}/pending?connection_id=${connectionId}&wait_ms=0`, {
            key: executorKey,
          }),
        "pending",
      );
      counts.pending = polled;
      expect(pending.status).toBe(200);
      expect(pending.body.data).toHaveLength(1);
      const candidate = pending.body.data[0] as { run_id: string; call_id: string };
      expect(candidate.run_id).toBe(run.run_id);
      const callPath = `/v1/runs/${candidate.run_id}/tool-calls/${candidate.call_id}`;
      const [claimCount, claim] = await counted(
        () => post(executorKey, `${callPath}/claim`, { executor_id: executorId, connection_id: connectionId }),
        "claim",
      );
      counts.claim = claimCount;
      expect(claim.replayed).toBe(false);
      const envelope = { executor_id: executorId, claim_id: claim.claim_id, grant: claim.grant };
      const receipt = (kind: "accepted" | "progress" | "completed", members: Record<string, unknown>) =>
        counted(
          () =>
            post(executorKey, `${callPath}/receipts`, { receipt_id: `${n}-${kind}`, ...envelope, kind, ...members }),
          kind,
        );
      const [acceptedCount, accepted] = await receipt("accepted", {});
      counts.accepted = acceptedCount;
      expect(accepted).toMatchObject({ confirmed: true, call_status: "accepted" });
      const [progressCount, progress] = await receipt("progress", { progress: { percent: 50 } });
      counts.progress = progressCount;
      expect(progress).toMatchObject({ applied: true, call_status: "accepted" });
      const [completedCount, completed] = await receipt("completed", { result: { task_id: "T-1" } });
      counts.completed = completedCount;
      expect(completed).toMatchObject({ applied: true, call_status: "completed", run_status: "completed" });
      return counts;
    };

    await cycle(1);
    const warm = await cycle(2);
    // The message shows every count, so a changed table is easy to read off.
    expect(warm, JSON.stringify(warm)).toEqual(BUDGET[dialect]);
    expect(trips, `round trips ${JSON.stringify(trips)}`).toEqual(ROUND_TRIPS[dialect]);
    // A third cycle costs the same: the count does not depend on what the storage holds.
    const third = await cycle(3);
    expect(third, JSON.stringify(third)).toEqual(BUDGET[dialect]);
    expect(trips, `round trips ${JSON.stringify(trips)}`).toEqual(ROUND_TRIPS[dialect]);
  });
});
