// `toolhost serve` through the real binary: prints its URL (the real port for --port 0) as the only
// stdout line, serves the API, logs JSON on stderr, shuts down on SIGTERM/SIGINT with status 0, and
// reports a failed start in one line with status 1.
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { SERVER_DEFAULTS, SERVER_ENV } from "@toolhost/server";
import { afterAll, describe, expect, it } from "vitest";
import { SHOWN_SERVER_DEFAULTS } from "../src/server-module.js";
import { runToolhost, tempDir } from "./run-toolhost.js";
import { startServe } from "./serve-process.js";

const dir = tempDir("serve");
afterAll(() => dir.remove());
const cwd = dir.path;
const BOOTSTRAP = "serve-test-bootstrap-secret-1234";

/** A TCP port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("toolhost serve", () => {
  it("prints the URL of a free port, serves the API, and exits 0 on SIGTERM", async () => {
    const serve = await startServe(
      ["--port", "0", "--db", "sqlite:term.db"],
      { TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP },
      cwd,
    );
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/);
    const health = await fetch(`${serve.url}/v1/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    const keys = await fetch(`${serve.url}/v1/keys`, { headers: { authorization: `Bearer ${BOOTSTRAP}` } });
    expect(keys.status).toBe(200);
    expect(await serve.stop("SIGTERM")).toBe(0);
    const log = serve
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string });
    expect(log.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["SIGTERM received; shutting down", "toolhost stopped"]),
    );
    expect(serve.stderr()).not.toContain(BOOTSTRAP);
  });

  it("exits 0 on SIGINT too, and keeps the data for the next start", async () => {
    const first = await startServe(
      ["--port", "0", "--db", "sqlite:int.db"],
      { TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP },
      cwd,
    );
    const created = await fetch(`${first.url}/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${BOOTSTRAP}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "kept", scopes: ["runtime:read"] }),
    });
    expect(created.status).toBe(201);
    expect(await first.stop("SIGINT")).toBe(0);
    const second = await startServe(
      ["--port", "0", "--db", "sqlite:int.db"],
      { TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP },
      cwd,
    );
    const list = (await (
      await fetch(`${second.url}/v1/keys`, { headers: { authorization: `Bearer ${BOOTSTRAP}` } })
    ).json()) as { data: Array<{ name: string }> };
    expect(list.data.map((key) => key.name)).toEqual(["bootstrap", "kept"]);
    expect(await second.stop()).toBe(0);
  });

  it("takes host, port and database from TOOLHOST_* variables", async () => {
    const port = await freePort();
    const serve = await startServe(
      [],
      { TOOLHOST_PORT: String(port), TOOLHOST_HOST: "127.0.0.1", TOOLHOST_DATABASE_URL: "sqlite:env.db" },
      cwd,
    );
    expect(serve.url).toBe(`http://127.0.0.1:${port}`);
    expect(await serve.stop()).toBe(0);
    // The server migrated the database the variable named.
    const env = await runToolhost(["migrate", "--db", "sqlite:env.db"], { cwd });
    expect(env.stdout).toMatch(/^up to date /);
  });

  it("reports a port in use in one line and exits 1", async () => {
    const serve = await startServe(["--port", "0", "--db", "sqlite:busy.db"], {}, cwd);
    const port = new URL(serve.url).port;
    const second = await runToolhost(["serve", "--port", port, "--db", "sqlite:busy2.db"], { cwd });
    expect(second.status).toBe(1);
    expect(second.stdout).toBe("");
    expect(second.stderr).toMatch(/^toolhost: cannot start the server: .*EADDRINUSE.*\n$/m);
    expect(await serve.stop()).toBe(0);
  });

  it("refuses a SQLite database in a directory that does not exist, creating nothing (exit 1)", async () => {
    const run = await runToolhost(["serve", "--port", "0", "--db", "sqlite:no/such/dir/x.db"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^toolhost: cannot start the server: the directory .*no\/such\/dir .*does not exist/m);
    expect(existsSync(join(cwd, "no"))).toBe(false);
  });

  it.each([
    [["serve", "--port", "70000"], /^toolhost: error: option '--port <port>' argument '70000' is invalid/],
    [["serve", "--port", "80a"], /^toolhost: error: option '--port <port>' argument '80a' is invalid/],
    [["serve", "--db", "mysql://x"], /^toolhost: --db: unsupported database URL \(scheme "mysql:"\)/],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const run = await runToolhost(args, { cwd });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it("shows the server's own defaults and variables in its help", async () => {
    const run = await runToolhost(["serve", "--help"], { cwd });
    expect(run.status).toBe(0);
    for (const shown of [SERVER_DEFAULTS.databaseUrl, SERVER_DEFAULTS.host, SERVER_DEFAULTS.port]) {
      expect(run.stdout).toContain(String(shown));
    }
    for (const variable of [SERVER_ENV.databaseUrl, SERVER_ENV.host, SERVER_ENV.port]) {
      expect(run.stdout).toContain(`$${variable}`);
    }
    expect(SHOWN_SERVER_DEFAULTS).toEqual({
      databaseUrl: SERVER_DEFAULTS.databaseUrl,
      host: SERVER_DEFAULTS.host,
      port: SERVER_DEFAULTS.port,
    });
  });
});
