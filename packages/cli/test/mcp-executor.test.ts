// `toolhost mcp-executor` (the real binary over dist/) with the real `@modelcontextprotocol/server-filesystem`
// installed from npm, against a real `toolhost serve`: --dry-run prints the mapping; --publish publishes
// it; a scripted run writes a file through the bridge, the bridge is SIGKILLed after the MCP server
// wrote it and before the answer reached the bridge, and a restart on the same journal reconciles the
// call (reconciliation_required, then the resolver's completed) — the MCP server saw one write_file,
// never two — and the run resumes: it reads the file back and lists the directory; a missing file's
// isError answer becomes a failed receipt.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runToolhost, TOOLHOST_BIN, tempDir } from "./run-toolhost.js";
import { type ServeProcess, startServe } from "./serve-process.js";

const ADMIN = "mcp-executor-test-admin-secret-1";
const FILESYSTEM_BIN = join(REPO_ROOT, "node_modules/.bin/mcp-server-filesystem");
const HOLD_PROXY = join(REPO_ROOT, "examples/mcp-filesystem/hold-answer.mjs");
const FILE_RESOLVER = join(REPO_ROOT, "examples/mcp-filesystem/resolver.mjs");

const dir = tempDir("mcp-executor");
const scratch = join(dir.path, "scratch");
let serve: ServeProcess;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  mkdirSync(scratch);
  serve = await startServe(
    ["--db", `sqlite:${join(dir.path, "server.db")}`, "--port", "0"],
    { TOOLHOST_BOOTSTRAP_KEY: ADMIN },
    dir.path,
  );
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await serve?.stop();
  dir.remove();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of answers.
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${serve.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A started `toolhost mcp-executor`: its output so far and its exit. */
interface Bridge {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<number | null>;
}

function startBridge(args: readonly string[], executorKey: string): Bridge {
  const child = spawn(process.execPath, [TOOLHOST_BIN, "mcp-executor", ...args], {
    cwd: dir.path,
    env: { PATH: process.env.PATH ?? "", TOOLHOST_URL: serve.url, TOOLHOST_API_KEY: executorKey },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

function serving(bridge: Bridge): Promise<string> {
  return until(
    () => bridge.stderr(),
    (text) => text.includes('"msg":"mcp executor serving"') || bridge.child.exitCode !== null,
    "the bridge serves",
  );
}

function logLines(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

describe("toolhost mcp-executor with server-filesystem", () => {
  let executorKey: string;

  beforeAll(async () => {
    await api("POST", "/v1/executor-bindings", { binding_id: "files", name: "scratch files" });
    executorKey = (await api("POST", "/v1/keys", { name: "mcp", scopes: ["executors:connect", "tools:execute"] })).key;
  });

  it("--dry-run prints the mapped toolset: prefix, effects from readOnlyHint, deny list", async () => {
    const result = await runToolhost(
      [
        "mcp-executor",
        "--command",
        `${FILESYSTEM_BIN} ${scratch}`,
        "--binding",
        "files",
        "--prefix",
        "fs.",
        "--deny",
        "read_file,read_media_file",
        "--dry-run",
      ],
      { cwd: dir.path },
    );
    expect(result.status, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.name).toBe("mcp files");
    const byName = new Map(body.tools.map((tool: { name: string }) => [tool.name, tool]));
    expect(byName.has("fs.read_file")).toBe(false);
    expect(byName.has("fs.read_media_file")).toBe(false);
    expect(byName.get("fs.write_file")).toMatchObject({
      effect: "write",
      binding_id: "files",
      max_result_context_bytes: 16384,
    });
    expect(byName.get("fs.read_text_file")).toMatchObject({ effect: "read", input_schema: { required: ["path"] } });
  });

  it("refuses a command line naming no MCP server, or two", async () => {
    const none = await runToolhost(["mcp-executor", "--binding", "files", "--dry-run"], { cwd: dir.path });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("exactly one of --command");
    const two = await runToolhost(
      ["mcp-executor", "--binding", "files", "--command", "x", "--url", "http://127.0.0.1:1/mcp", "--dry-run"],
      { cwd: dir.path },
    );
    expect(two.status).toBe(2);
  });

  it("stops on SIGTERM while toolhost is still unreachable", async () => {
    const child = spawn(
      process.execPath,
      [
        TOOLHOST_BIN,
        "mcp-executor",
        "--command",
        `${FILESYSTEM_BIN} ${scratch}`,
        "--binding",
        "files",
        "--journal",
        join(dir.path, "unreachable.journal.db"),
        "--log-level",
        "warn",
      ],
      {
        cwd: dir.path,
        env: { PATH: process.env.PATH ?? "", TOOLHOST_URL: "http://127.0.0.1:1", TOOLHOST_API_KEY: "k" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    children.add(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await until(
      () => stderr,
      (text) => text.includes("connect requests fail"),
      "the runner retries connecting",
    );
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("publishes, serves a run, survives a SIGKILL mid-write with one write only, and resumes after a restart", async () => {
    const log = join(dir.path, "mcp-calls.jsonl");
    const target = join(scratch, "note.txt");
    const missing = join(scratch, "missing.txt");
    const common = [
      "--binding",
      "files",
      "--prefix",
      "fs.",
      "--allow",
      "write_file,read_text_file,list_directory",
      "--journal",
      join(dir.path, "bridge.journal.db"),
      "--log-level",
      "info",
    ];

    // First life: publish, then serve through a proxy that holds back write_file's answer.
    const first = startBridge(
      [
        ...common,
        "--command",
        `${process.execPath} ${HOLD_PROXY} --hold write_file --log ${log} -- ${FILESYSTEM_BIN} ${scratch}`,
        "--publish",
        "--publish-key",
        ADMIN,
      ],
      executorKey,
    );
    await serving(first);
    const published = JSON.parse(first.stdout().split("\n")[0] ?? "");
    expect(published).toMatchObject({ version: 1, tools: 3 });

    const agent = await api("POST", "/v1/agents", { name: "files agent" });
    const version = await api("POST", `/v1/agents/${agent.agent_id}/versions`, {
      toolset_id: published.toolset_id,
      toolset_version: 1,
      model: {
        provider: "scripted",
        script: [
          { tool_calls: [{ name: "fs.write_file", arguments: { path: target, content: "hello from toolhost" } }] },
          {
            tool_calls: [
              { name: "fs.read_text_file", arguments: { path: target } },
              { name: "fs.list_directory", arguments: { path: scratch } },
              { name: "fs.read_text_file", arguments: { path: missing } },
            ],
          },
          { message: "done" },
        ],
      },
    });
    const session = await api("POST", "/v1/sessions", { agent_version: version.agent_version, subject: "user-1" });
    const run = await api("POST", `/v1/sessions/${session.session_id}/runs`, { input: "write a note" });

    // The MCP server wrote the file and answered; the answer is held: kill the bridge now.
    await until(
      () => logLines(log),
      (lines) => lines.some((line) => "held" in line),
      "write_file answered",
    );
    expect(readFileSync(target, "utf8")).toBe("hello from toolhost");
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe(null);
    const [writeCall] = (await api("GET", `/v1/runs/${run.run_id}/tool-calls`)).data;
    expect(writeCall.status).toBe("accepted");

    // Second life: same journal and executor ID, no hold, a resolver that looks at the file.
    const second = startBridge(
      [
        ...common,
        "--command",
        `${process.execPath} ${HOLD_PROXY} --log ${log} -- ${FILESYSTEM_BIN} ${scratch}`,
        "--resolver-command",
        `${process.execPath} ${FILE_RESOLVER}`,
      ],
      executorKey,
    );
    await serving(second);
    const ended = await until(
      () => api("GET", `/v1/runs/${run.run_id}`),
      (r) => ["completed", "failed", "cancelled", "expired"].includes(r.status),
      "the run ends",
    );
    expect(ended.status).toBe("completed");

    // One write_file ever reached the MCP server, carrying the operation key in _meta.
    const calls = logLines(log).filter((line) => "call" in line);
    const writes = calls.filter((line) => line.call === "write_file");
    expect(writes).toHaveLength(1);
    expect((writes[0]?._meta ?? {}) as Record<string, unknown>).toHaveProperty(
      ["toolhost/operation_key"],
      `${run.run_id}:${writeCall.call_id}`,
    );

    const write = await until(
      async () => (await api("GET", `/v1/runs/${run.run_id}/tool-calls`)).data[0],
      (call) => call.status === "completed",
      "the resolver completes the write",
    );
    const { receipts } = await api("GET", `/v1/runs/${run.run_id}/tool-calls/${write.call_id}/receipts`);
    const kinds = receipts.map((receipt: { kind: string }) => receipt.kind);
    expect(kinds.filter((kind: string) => kind === "reconciliation_required")).toHaveLength(1);
    expect(kinds.at(-1)).toBe("completed");

    const history = (await api("GET", `/v1/runs/${run.run_id}/history?limit=100`)).data;
    const results = history.filter((item: { type: string }) => item.type === "tool_result");
    expect(results[0].context_preview.result.status).toBe("reconciliation_required");
    const texts = results.map((item: { context_preview: unknown }) => JSON.stringify(item.context_preview));
    expect(texts.some((text: string) => text.includes('{"content":"hello from toolhost"}'))).toBe(true);
    expect(texts.some((text: string) => text.includes("[FILE] note.txt"))).toBe(true);
    const failed = results.find(
      (item: { context_preview: { result: { error?: { code: string } } } }) =>
        item.context_preview.result.error !== undefined,
    );
    expect(failed.context_preview.result.error.code).toBe("mcp_tool_error");
    expect(failed.context_preview.result.error.message).toContain("ENOENT");

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
