// `toolhost runs list|show|cancel|watch`, `toolhost calls cancel|compensate` and `toolhost completion`
// through the real binary against a started `toolhost serve`, with --json parsed: the list filters by
// status and agent, show carries the calls, watch prints every event until the run ends, cancel and
// compensate answer what the API answers, an API refusal is one line and status 1, and the bash
// completion offers the subcommands and options.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_STATUSES } from "../../protocol/src/runs/run-status.js";
import {
  admin,
  buildWorld,
  claimed,
  connect,
  expectStatus,
  listCalls,
  receipt,
  startRun,
  type World,
} from "../../server/test/calls/calls-harness.js";
import { BOOTSTRAP_SECRET, request } from "../../server/test/http/http-harness.js";
import { SHOWN_RUN_STATUSES } from "../src/commands/runs.js";
import { runCommand, runToolhost, tempDir } from "./run-toolhost.js";
import { type ServeProcess, startServe } from "./serve-process.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
type Parsed = any;

const dir = tempDir("runs-commands");
afterAll(() => dir.remove());

describe("toolhost runs and calls", () => {
  let serve: ServeProcess;
  let world: World;
  const api = { call: (method: string, path: string, call = {}) => request(serve.url, method, path, call) };
  const toolhost = (args: string[]) =>
    runToolhost([...args, "--url", serve.url, "--key", admin.key], { cwd: dir.path });
  const json = async (args: string[]) => {
    const result = await toolhost([...args, "--json"]);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)) as Parsed[];
  };
  /** Completes the run's one call as an executor would. */
  async function complete(runId: string, executorId: string): Promise<string> {
    const [call] = await listCalls(api, runId);
    const held = await claimed(api as never, world, runId, call.call_id, await connect(api, world, executorId));
    expectStatus(await receipt(api, world, held, { receipt_id: "a", kind: "accepted" }), 200);
    expectStatus(await receipt(api, world, held, { receipt_id: "c", kind: "completed", result: { id: 1 } }), 200);
    return call.call_id;
  }

  beforeAll(async () => {
    serve = await startServe(
      ["--port", "0", "--db", "sqlite:runs.db"],
      { TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP_SECRET, TOOLHOST_LOG_LEVEL: "warn" },
      dir.path,
    );
    world = await buildWorld(api, [
      { tool_calls: [{ name: "tasks.write", arguments: { title: "one" } }] },
      { message: "done" },
    ]);
  });
  afterAll(async () => {
    await serve.stop();
  });

  it("lists runs with --status, --agent and --limit; shows one with its calls", async () => {
    const done = await startRun(api, world);
    await complete(done, "cli-ex-1");
    const waiting = await startRun(api, world);
    const [all] = await json(["runs", "list"]);
    expect(all.data.map((run: { run_id: string }) => run.run_id)).toEqual([waiting, done]);
    const [completedOnly] = await json(["runs", "list", "--status", "completed"]);
    expect(completedOnly.data.map((run: { run_id: string }) => run.run_id)).toEqual([done]);
    const [byAgent] = await json(["runs", "list", "--agent", world.agentId, "--limit", "1"]);
    expect(byAgent.data.map((run: { run_id: string }) => run.run_id)).toEqual([waiting]);
    expect(byAgent.next_cursor).toEqual(expect.any(String));
    const [next] = await json(["runs", "list", "--agent", world.agentId, "--cursor", byAgent.next_cursor]);
    expect(next.data.map((run: { run_id: string }) => run.run_id)).toEqual([done]);
    const [shown] = await json(["runs", "show", done]);
    expect(shown.run).toMatchObject({ run_id: done, status: "completed", output: "done" });
    expect(shown.tool_calls.map((call: { status: string }) => call.status)).toEqual(["completed"]);
    const text = await toolhost(["runs", "list", "--status", "waiting_for_tools"]);
    expect(text.stdout.split("\t").slice(0, 2)).toEqual([waiting, "waiting_for_tools"]);
    const bad = await toolhost(["runs", "list", "--status", "sleeping"]);
    expect(bad.status).toBe(2);
  });

  it("watch prints every event until the run ends; cancel and calls cancel answer as the API", async () => {
    const runId = await startRun(api, world);
    const watching = json(["runs", "watch", runId]);
    await complete(runId, "cli-ex-2");
    const events = await watching;
    expect(events.map((event) => Number(event.id))).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)).toMatchObject({ event: "run.status", data: { status: "completed" } });

    const other = await startRun(api, world);
    const [call] = await listCalls(api, other);
    const [cancelledCall] = await json(["calls", "cancel", other, call.call_id]);
    expect(cancelledCall).toEqual({ call_id: call.call_id, status: "cancelled", cancel_requested: true });
    const third = await startRun(api, world);
    const [cancelled] = await json(["runs", "cancel", third]);
    expect(cancelled).toEqual({ run_id: third, status: "cancelled" });
    expect((await api.call("GET", `/v1/runs/${third}`, admin)).body.status).toBe("cancelled");
  });

  it("compensate starts a compensating call; a refusal is one line with the API's code and status 1", async () => {
    const runId = await startRun(api, world);
    const callId = await complete(runId, "cli-ex-3");
    const [compensation] = await json([
      "calls",
      "compensate",
      runId,
      callId,
      "--tool",
      "tasks.undo",
      "--arguments",
      '{"id":1}',
    ]);
    expect(compensation).toMatchObject({ tool_name: "tasks.undo", status: "pending", compensates: callId });
    const refused = await toolhost(["runs", "show", "run_missing"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toMatch(/^toolhost: GET \/v1\/runs\/run_missing: 404 not_found: /);
    const noKey = await runToolhost(["runs", "list", "--url", serve.url], { cwd: dir.path, env: { PATH: "" } });
    expect(noKey.status).toBe(2);
  });
});

describe("toolhost completion", () => {
  it("offers the subcommands and options in bash", async () => {
    const script = await runToolhost(["completion", "bash"], { cwd: dir.path });
    expect(script.status).toBe(0);
    const complete = async (words: string[]) => {
      const line = `${script.stdout}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _toolhost; echo "\${COMPREPLY[*]}"`;
      return (await runCommand("bash", ["-c", line], { cwd: dir.path })).stdout.trim().split(" ");
    };
    expect(await complete(["toolhost", "ru"])).toEqual(["runs"]);
    expect(await complete(["toolhost", "runs", ""])).toEqual(["list", "show", "cancel", "watch", "--help"]);
    expect(await complete(["toolhost", "runs", "list", "--st"])).toEqual(["--status"]);
    expect(await complete(["toolhost", "calls", "compensate", "r", "c", "--to"])).toEqual(["--tool"]);
    const zsh = await runToolhost(["completion", "zsh"], { cwd: dir.path });
    expect(zsh.stdout).toContain("bashcompinit");
    expect(zsh.stdout).toContain("complete -F _toolhost toolhost");
    expect((await runToolhost(["completion", "fish"], { cwd: dir.path })).status).toBe(2);
  });

  it("lists the run statuses the wire has", () => {
    expect([...SHOWN_RUN_STATUSES].sort()).toEqual(Object.values(RUN_STATUSES).sort());
  });
});
