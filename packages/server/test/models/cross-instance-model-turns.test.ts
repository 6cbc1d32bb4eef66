// Two instances on one PostgreSQL schema, each driver with room for one request and a 60 s poll
// interval: while A's only request hangs, a turn queued through A is announced (NOTIFY
// toolhost_model_turns) and B asks the model at once — not at its next poll, which never comes here.
import { expect, it } from "vitest";
import { describeDialect, testDatabaseUrl } from "../support/test-databases.js";
import { startFakeModelServer } from "./fake-model-server.js";
import { buildModelWorld, openAiModel, readJson, runEnded, startModelRun, startModelServer } from "./model-harness.js";

describeDialect("postgres", "queued model turns across instances", () => {
  it("a turn queued on a full instance is driven by another one at once", async () => {
    const fake = await startFakeModelServer();
    fake.push({ kind: "hang" }, { kind: "message", text: "Driven elsewhere." });
    const database = await testDatabaseUrl("postgres");
    const options = { fakeUrl: fake.url, modelPollIntervalMs: 60_000, modelConcurrency: 1 };
    const a = await startModelServer("postgres", options, database);
    await startModelServer("postgres", options, database);
    const world = await buildModelWorld(a, openAiModel());
    // A's driver is kicked by the run's commit and holds its one request open.
    const hanging = await startModelRun(a, world);
    await fake.waitForRequests(1);
    const driven = await startModelRun(a, world);
    // runEnded gives up after 20 s, a third of a poll interval: B was told.
    expect(await runEnded(a, driven)).toMatchObject({ status: "completed", output: "Driven elsewhere." });
    expect(fake.requests).toHaveLength(2);
    // The first run's request is still held: A never had room for the second.
    expect((await readJson(a, `/v1/runs/${hanging}`)).status).toBe("running");
    fake.releaseHung();
  });
});
