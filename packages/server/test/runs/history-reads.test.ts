// A model turn reads from the database only what was appended since the run's last turn, not the
// whole history (docs/storage.md#history-reads): the rows and text the storage reads while a
// receipt settles a call and the scripted model takes its next turn are the same at turn 100 as at
// turn 10, on both dialects. Counted by the storage's statement counter (rows and characters read).
import { expect, it } from "vitest";
import type { KyselyStorage } from "../../src/storage/kysely-storage.js";
import {
  buildWorld,
  type ClockedServer,
  claimed,
  connect,
  type Executor,
  expectStatus,
  listCalls,
  receipt,
  startClockedServer,
  startRun,
  type World,
} from "../calls/calls-harness.js";
import { describeEachDialect } from "../support/test-databases.js";

const TURNS = 100;
/** Each result is 1 KB of text, so a re-read history would weigh about 1 KB per turn. */
const RESULT = { text: "x".repeat(1_000) };

/** What the storage read while one request ran. */
interface Reads {
  readonly rows: number;
  readonly characters: number;
}

/** Settles the run's pending call (the turn-th) and answers what the completed receipt read. */
async function settleTurn(
  server: ClockedServer,
  world: World,
  runId: string,
  executor: Executor,
  turn: number,
): Promise<Reads> {
  const pending = (await listCalls(server, runId)).filter((call) => call.status === "pending");
  expect(pending.length, `turn ${turn} has one pending call`).toBe(1);
  const held = await claimed(server, world, runId, pending[0].call_id, executor);
  expectStatus(await receipt(server, world, held, { receipt_id: "a", kind: "accepted" }), 200);
  const storage = server.server.storage as KyselyStorage;
  const before = storage.stats();
  expectStatus(await receipt(server, world, held, { receipt_id: "c", kind: "completed", result: RESULT }), 200);
  const after = storage.stats();
  return { rows: after.rowsRead - before.rowsRead, characters: after.charactersRead - before.charactersRead };
}

describeEachDialect("history reads per turn", (dialect) => {
  it("a turn reads as much at turn 100 as at turn 10", { timeout: 120_000 }, async () => {
    // No background ticks: only the requests read.
    const server = await startClockedServer(dialect, { sweepIntervalMs: 60_000, modelPollIntervalMs: 60_000 });
    const script = [
      ...Array.from({ length: TURNS + 1 }, (_, index) => ({
        tool_calls: [{ name: "tasks.write", arguments: { title: `task ${index}` } }],
      })),
      { message: "done" },
    ];
    const world = await buildWorld(server, script, { max_result_context_bytes: 2048 });
    const runId = await startRun(server, world);
    const executor = await connect(server, world, "history-reader");
    const reads = new Map<number, Reads>();
    for (let turn = 1; turn <= TURNS; turn++) reads.set(turn, await settleTurn(server, world, runId, executor, turn));
    const at10 = reads.get(10) as Reads;
    const at100 = reads.get(TURNS) as Reads;
    // The whole history at turn 100 holds over 100 KB of results; the turn must not read it.
    expect(at100.characters, JSON.stringify({ at10, at100 })).toBeLessThan(2 * at10.characters);
    expect(at100.rows, JSON.stringify({ at10, at100 })).toBeLessThan(2 * at10.rows);
    await server.close();
  });
});
