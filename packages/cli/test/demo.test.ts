// The first run, through the real binary: `toolhost demo` seeds a fresh database, starts the example
// executor, completes a run and exits 0 leaving no process behind; `toolhost serve --demo` (npm start)
// on an empty database seeds the demo, prints the console's URL and an admin key once, honours
// TOOLHOST_PORT, and a second start reuses the demo; `toolhost serve` on a database without keys says
// how to make the first one.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { runToolhost, TOOLHOST_BIN, tempDir } from "./run-toolhost.js";
import { startServe } from "./serve-process.js";

const dir = tempDir("demo");
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
  dir.remove();
});

/** True while a process with `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded) until `pid` is gone. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return !alive(pid);
}

/** A TCP port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A running `toolhost serve --demo`, read up to its banner's last line. */
interface DemoServe {
  readonly stdout: string;
  readonly consoleUrl: string;
  readonly child: ChildProcess;
  stop(): Promise<number | null>;
}

function startDemoServe(args: string[], env: Record<string, string>): Promise<DemoServe> {
  const child = spawn(process.execPath, [TOOLHOST_BIN, "serve", "--demo", ...args], {
    cwd: dir.path,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      stdout += `${line}\n`;
      if (!line.includes("Ctrl-C stops")) return;
      const consoleUrl = /Console: +(\S+)/.exec(stdout)?.[1];
      if (consoleUrl === undefined) return reject(new Error(`no console URL in:\n${stdout}`));
      resolve({
        stdout,
        consoleUrl,
        child,
        stop: () => {
          child.kill("SIGINT");
          return exited;
        },
      });
    });
    exited.then((code) => reject(new Error(`serve --demo exited with ${code}:\n${stdout}\n${stderr}`)));
  });
}

async function get(
  url: string,
  key: string,
): Promise<{ status: number; body: { data: Array<Record<string, unknown>> } }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as { data: Array<Record<string, unknown>> } };
}

describe("toolhost demo", () => {
  it("runs the scripted agent through the example executor to a completed run, with timed steps, and exits 0", async () => {
    const run = await runToolhost(["demo"], { cwd: dir.path, env: { PATH: process.env.PATH ?? "" } });
    expect(run.status, run.stderr).toBe(0);
    const steps = run.stdout.split("\n").filter((line) => line.startsWith("  ✓"));
    expect(steps.map((line) => line.replace(/ {2}\([0-9.]+ m?s\)$/, "").replace(/_[0-9a-z]+/g, "_…"))).toEqual([
      expect.stringMatching(/^ {2}✓ server listening at http:\/\/127\.0\.0\.1:\d+ \(a temporary SQLite database\)$/),
      "  ✓ demo configured: binding task-service, toolset (tasks.read, tasks.create), agent version agv_… (scripted model), session ses_…",
      expect.stringMatching(/^ {2}✓ example executor task-service-demo online \(examples\/task-service, pid \d+\)$/),
      '  ✓ run run_… completed: "Created the task and read the list."',
      "  ✓ executor and server stopped",
    ]);
    for (const line of steps) expect(line).toMatch(/\(([0-9]+ ms|[0-9.]+ s)\)$/);
    expect(run.stdout).toContain("The run called tasks.create, then tasks.read");
    const pid = Number(/pid (\d+)/.exec(run.stdout)?.[1]);
    expect(await gone(pid)).toBe(true);
  });
});

describe("toolhost serve --demo (npm start)", () => {
  it("seeds an empty database, prints the console URL and an admin key once; a second start reuses the demo", async () => {
    const port = await freePort();
    const env = { TOOLHOST_PORT: String(port) };
    const first = await startDemoServe(["--db", "sqlite:first.db"], env);
    expect(first.consoleUrl).toBe(`http://127.0.0.1:${port}/`);
    const key = /Admin key: +(th_\S+)/.exec(first.stdout)?.[1] as string;
    expect(key).toBeDefined();
    expect(first.stdout.match(/th_[A-Za-z0-9_-]{20,}/g)).toEqual([key]);
    expect(first.stdout).toMatch(/Its first run run_\S+ completed/);
    // The console is served, and the key reads the demo: a completed run, the executor online.
    const page = await fetch(first.consoleUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const runs = await get(`${first.consoleUrl}v1/runs`, key);
    expect(runs.body.data.map((run) => run.status)).toEqual(["completed"]);
    const executors = await get(`${first.consoleUrl}v1/executors`, key);
    expect(executors.body.data).toMatchObject([{ executor_id: "task-service-demo", online: true, epoch: 1 }]);
    const executorPid = Number(/pid (\d+)/.exec(first.stdout)?.[1]);
    expect(await first.stop()).toBe(0);
    expect(await gone(executorPid)).toBe(true);

    const second = await startDemoServe(["--db", "sqlite:first.db"], env);
    expect(second.stdout).toContain("✓ demo found");
    expect(second.stdout).not.toContain("Admin key:");
    expect(second.stdout).not.toMatch(/th_[A-Za-z0-9_-]{20,}/);
    expect(second.stdout).toContain("Sign in with the admin key printed when the demo was created.");
    expect((await get(`${second.consoleUrl}v1/runs`, key)).body.data).toHaveLength(1);
    const again = await get(`${second.consoleUrl}v1/executors`, key);
    expect(again.body.data).toMatchObject([{ executor_id: "task-service-demo", online: true, epoch: 2 }]);
    const agents = await get(`${second.consoleUrl}v1/agents`, key);
    expect(agents.body.data.map((agent) => agent.name)).toEqual(["Task assistant (demo)"]);
    expect(await second.stop()).toBe(0);
  });

  it("leaves a database that holds other configuration alone", async () => {
    expect((await runToolhost(["migrate", "--db", "sqlite:other.db"], { cwd: dir.path })).status).toBe(0);
    const key = await runToolhost(["keys", "create", "--db", "sqlite:other.db", "--name", "me", "--scopes", "admin"], {
      cwd: dir.path,
    });
    expect(key.status, key.stderr).toBe(0);
    const serve = await startDemoServe(["--db", "sqlite:other.db", "--port", "0"], {});
    expect(serve.stdout).toContain("no demo was added");
    expect(serve.stdout).not.toContain("Admin key:");
    const agents = await get(`${serve.consoleUrl}v1/agents`, key.stdout.trim());
    expect(agents.body.data).toEqual([]);
    expect(await serve.stop()).toBe(0);
  });
});

describe("toolhost serve on a database without keys", () => {
  it("says on standard error how to make the first key", async () => {
    const serve = await startServe(["--port", "0", "--db", "sqlite:keyless.db"], {}, dir.path);
    await expect
      .poll(() => serve.stderr())
      .toContain("npx toolhost keys create --db sqlite:keyless.db --name me --scopes admin");
    expect(serve.stderr()).toContain(`${serve.url}/`);
    expect(await serve.stop()).toBe(0);
  });

  it("stays quiet about keys when one exists", async () => {
    const serve = await startServe(
      ["--port", "0", "--db", "sqlite:keyed.db"],
      { TOOLHOST_BOOTSTRAP_KEY: "demo-test-bootstrap-secret-123" },
      dir.path,
    );
    expect(await serve.stop()).toBe(0);
    expect(serve.stderr()).not.toContain("no API key yet");
  });
});
