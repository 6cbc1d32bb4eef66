// A provider turn's request leaves as soon as the transaction that queued it committed: the receipt
// that settles a turn's last call (and the run's creation) registers the run as ready, an after-commit
// effect that kicks the run driver (docs/runs.md, "The run driver"). The driver's poll interval here is
// 60 s, beyond every wait of this test: a request that arrives came from the kick, not from a poll.
import { expect, it } from "vitest";
import { claimAndAccept, sendReceipt } from "../runs/run-fixtures.js";
import { describeEachDialect } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import {
  buildModelWorld,
  openAiModel,
  pendingCalls,
  runEnded,
  startModelRun,
  startModelServer,
} from "./model-harness.js";

describeEachDialect("provider turns after the commit", (dialect) => {
  it("asks the provider right after the run's creation and after its turn's last receipt, not at the next poll", async () => {
    const fake = await startFakeModelServer();
    fake.push(
      { kind: "tool_calls", calls: [{ name: "tasks_read", arguments: {} }] },
      { kind: "message", text: "Nothing to do." },
    );
    const server = await startModelServer(dialect, { fakeUrl: fake.url, modelPollIntervalMs: 60_000 });
    const world = await buildModelWorld(server, openAiModel());
    const runId = await startModelRun(server, world);
    const [call] = await pendingCalls(server, runId, 1);
    const holder = await claimAndAccept(server, world.bindingId, runId, call.call_id);
    const settled = await sendReceipt(server, runId, call.call_id, {
      ...holder,
      receipt_id: `${call.call_id}-completed`,
      kind: "completed",
      result: { tasks: [] },
    });
    expect(settled.body).toMatchObject({ applied: true, call_status: "completed", run_status: "running" });
    const run = await runEnded(server, runId);
    expect(run).toMatchObject({ status: "completed", output: "Nothing to do." });
    // runEnded gives up after 20 s, a third of one poll interval: both requests came from kicks.
    expect(fake.requests).toHaveLength(2);
  });
});
