// The examples' setup scripts, run as a user runs them, against an address where nothing listens:
// one line naming the address and what to do, exit status 1, no stack.
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("example setup scripts", () => {
  for (const script of ["examples/task-service/setup.mjs", "examples/mcp-filesystem/setup.mjs"]) {
    it(`${script} says in one line that the server cannot be reached`, async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      const run = spawnSync(process.execPath, [script], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, TOOLHOST_URL: url, TOOLHOST_ADMIN_KEY: "th_not_checked" },
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `cannot reach the toolhost server at ${url} (ECONNREFUSED): start it (npx toolhost serve) or set TOOLHOST_URL to its address\n`,
      );
    });
  }
});
