// `toolhost dry-run` through the real binary against `toolhost serve`: the answer printed as the server
// wrote it, a result file's exact text reaching the server (big integers, float spellings), invalid
// arguments and receipts reported with status 1, and server or usage errors in one line.
import { type AddressInfo, createServer } from "node:net";
import { compact, parseJson, projectResult } from "@toolhost/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolhost, tempDir } from "./run-toolhost.js";
import { type ServeProcess, startServe } from "./serve-process.js";

/** A port nothing listens on: one the system gave out a moment ago and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const dir = tempDir("dry-run");
afterAll(() => dir.remove());
const cwd = dir.path;
const BOOTSTRAP = "dry-run-cli-bootstrap-secret-42";

/** A ~20 KB result over the 1 KiB budget, with numbers JSON.parse would not keep. */
const LARGE = `{"status":"ok","items":[${Array.from({ length: 300 }, (_, i) => `{"id":${9007199254740993n + BigInt(i)},"w":1.0,"t":"任务${i}"}`).join(",")}],"next_cursor":"c-2"}`;
dir.write("large.json", LARGE);
dir.write("receipt.json", '{"receipt_id":"from-file","kind":"completed","result":{"n":1e5}}');
dir.write("broken.json", '{"receipt_id":');

describe("toolhost dry-run", () => {
  let serve: ServeProcess;
  let agentVersion: string;
  let key: string;

  beforeAll(async () => {
    serve = await startServe(["--port", "0", "--db", "sqlite:dry.db"], { TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP }, cwd);
    const post = async (path: string, body: unknown): Promise<Record<string, string | number>> => {
      const response = await fetch(`${serve.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, string | number>;
    };
    const binding = await post("/v1/executor-bindings", { name: "tasks" });
    const tool = {
      name: "tasks.read",
      binding_id: binding.binding_id,
      input_schema: { type: "object", properties: { cursor: { type: "string" } }, additionalProperties: false },
      max_result_context_bytes: 1024,
      effect: "read",
    };
    const toolset = await post("/v1/toolsets", { name: "tasks", tools: [tool] });
    const agent = await post("/v1/agents", { name: "assistant" });
    const version = await post(`/v1/agents/${agent.agent_id}/versions`, {
      toolset_id: toolset.toolset_id,
      toolset_version: toolset.version,
      model: { provider: "scripted", script: [{ message: "done" }] },
    });
    agentVersion = version.agent_version as string;
    const created = await runToolhost(
      [
        "keys",
        "create",
        "--name",
        "dry-run",
        "--scopes",
        "runtime:read",
        "--agents",
        agent.agent_id as string,
        "--db",
        "sqlite:dry.db",
      ],
      { cwd },
    );
    expect(created.status, created.stderr).toBe(0);
    key = created.stdout.trim();
  });
  afterAll(async () => {
    await serve?.stop();
  });

  const dryRun = (...args: string[]) =>
    runToolhost(
      ["dry-run", "--url", serve.url, "--key", key, "--agent-version", agentVersion, "--tool", "tasks.read", ...args],
      { cwd },
    );

  it("prints the server's answer with the preview of a result file, exactly as history would store it", async () => {
    const run = await dryRun("--arguments", '{"cursor":"c-1"}', "--result", "@large.json");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const preview = projectResult(parseJson(LARGE), 1024);
    expect(preview.truncated).toBe(true);
    expect(run.stdout.endsWith(`"context_preview":${compact({ ...preview })},"execution_verified":false}\n`)).toBe(
      true,
    );
    const answer = JSON.parse(run.stdout);
    expect(answer.receipts).toEqual([{ receipt_id: "cli-result", kind: "completed", valid: true, errors: [] }]);
    expect(answer.arguments).toEqual({ valid: true, errors: [] });
  });

  it("sends receipts in order, from files and inline, and reads the key from TOOLHOST_API_KEY", async () => {
    const run = await runToolhost(
      [
        "dry-run",
        "--url",
        serve.url,
        "--agent-version",
        agentVersion,
        "--tool",
        "tasks.read",
        "--receipt",
        '{"receipt_id":"a1","kind":"accepted"}',
        "--receipt",
        "@receipt.json",
        "--pretty",
      ],
      { cwd, env: { PATH: process.env.PATH, TOOLHOST_API_KEY: key } },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('\n  "context_preview": {\n');
    expect(run.stdout).toContain('"result": {\n      "n": 100000.0\n    }');
    expect(JSON.parse(run.stdout).receipts.map((r: { receipt_id: string }) => r.receipt_id)).toEqual([
      "a1",
      "from-file",
    ]);
  });

  it("reports invalid arguments and receipts on stderr and exits 1, still printing the answer", async () => {
    const run = await dryRun("--arguments", '{"cursor":7}', "--receipt", '{"receipt_id":"c1","kind":"completed"}');
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).context_preview).toBeNull();
    expect(run.stderr.split("\n")).toEqual([
      expect.stringMatching(/^toolhost: arguments invalid at \/cursor: /),
      expect.stringMatching(/^toolhost: receipt c1 invalid at \/result: a completed receipt must carry its result$/),
      "",
    ]);
  });

  it("reports a refused input file, a server error and an unreachable server in one line, exit 1", async () => {
    const broken = await dryRun("--receipt", "@broken.json");
    expect(broken.status).toBe(1);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toBe(
      "toolhost: --receipt[1] @broken.json: invalid_json at /receipt_id: expected a JSON value, found end of input at offset 14\n",
    );

    const unknown = await runToolhost(
      ["dry-run", "--url", serve.url, "--key", key, "--agent-version", "agv_missing", "--tool", "tasks.read"],
      { cwd },
    );
    expect(unknown).toEqual({
      status: 1,
      stdout: "",
      stderr: 'toolhost: the server answered 404: not_found at /agent_version: agent version "agv_missing" not found\n',
    });

    const closed = `http://127.0.0.1:${await closedPort()}`;
    const down = await runToolhost(["dry-run", "--url", closed, "--key", key, "--agent-version", "v", "--tool", "t"], {
      cwd,
    });
    expect(down.status).toBe(1);
    expect(down.stdout).toBe("");
    expect(down.stderr).toMatch(new RegExp(`^toolhost: cannot reach ${closed}: .*ECONNREFUSED.*\n$`));
  });

  it("--help names the --url default once", async () => {
    const help = await runToolhost(["dry-run", "--help"], { cwd, env: { PATH: process.env.PATH } });
    expect(help.status).toBe(0);
    expect(help.stdout.match(/127\.0\.0\.1:8080/g)?.length).toBe(1);
    expect(help.stdout.replace(/\s+/g, " ")).toContain("(default: $TOOLHOST_URL, else http://127.0.0.1:8080)");
  });

  it("needs a key, the agent version and the tool (usage errors, exit 2)", async () => {
    const noKey = await runToolhost(["dry-run", "--agent-version", "v", "--tool", "t"], {
      cwd,
      env: { PATH: process.env.PATH },
    });
    expect(noKey).toEqual({
      status: 2,
      stdout: "",
      stderr: "toolhost: an API key is required: --key KEY or TOOLHOST_API_KEY\n",
    });
    const noTool = await runToolhost(["dry-run", "--key", "k", "--agent-version", "v"], { cwd });
    expect(noTool.status).toBe(2);
    expect(noTool.stderr).toContain("required option '--tool <name>' not specified");
  });
});
