// A real server process (the built dist) shuts down on SIGTERM: it stops accepting, lets an
// in-flight request finish, closes storage and exits 0.
import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeEachDialect, testDatabaseUrl } from "../support/test-databases.js";
import { BOOTSTRAP_SECRET } from "./http-harness.js";

const SCRIPT = fileURLToPath(new URL("./fixtures/serve-until-signal.mjs", import.meta.url));

/** Log lines of a child process, with a way to wait for the first one matching a predicate. */
function watchLog(child: ChildProcess) {
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    test: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  if (child.stdout === null) throw new Error("no stdout");
  createInterface({ input: child.stdout }).on("line", (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const waitFor = (test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    const seen = lines.find(test);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ test, resolve }));
  };
  return { lines, waitFor };
}

describeEachDialect("graceful shutdown of a real process", (dialect) => {
  it("SIGTERM lets an in-flight request finish, then exits 0", async () => {
    const database = await testDatabaseUrl(dialect);
    const child = spawn(process.execPath, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        TOOLHOST_DATABASE_URL: database.url,
        TOOLHOST_BOOTSTRAP_KEY: BOOTSTRAP_SECRET,
        TOOLHOST_HOST: "127.0.0.1",
        TOOLHOST_LOG_LEVEL: "debug",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const log = watchLog(child);
    try {
      const listening = await Promise.race([
        log.waitFor((line) => typeof line.url === "string"),
        exited.then((code) => {
          throw new Error(`server exited with ${code} before listening: ${stderr}`);
        }),
      ]);
      const url = new URL(listening.url as string);

      // Start a request and send only half of its body: it is in flight when SIGTERM arrives.
      const body = JSON.stringify({ name: "created during shutdown", scopes: ["runtime:read"] });
      const half = Math.floor(body.length / 2);
      const answered = new Promise<{ status: number; connection: string | undefined; text: string }>(
        (resolve, reject) => {
          const req = httpRequest(
            {
              host: url.hostname,
              port: url.port,
              method: "POST",
              path: "/v1/keys",
              headers: {
                authorization: `Bearer ${BOOTSTRAP_SECRET}`,
                "content-type": "application/json",
                "content-length": Buffer.byteLength(body),
              },
            },
            (res) => {
              let text = "";
              res.on("data", (chunk: Buffer) => {
                text += chunk.toString("utf8");
              });
              res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
            },
          );
          req.on("error", reject);
          req.write(body.slice(0, half));
          log
            .waitFor((line) => line.msg === "request received" && line.url === "/v1/keys")
            .then(() => {
              child.kill("SIGTERM");
              return log.waitFor((line) => line.msg === "SIGTERM received; shutting down");
            })
            .then(() => req.end(body.slice(half)), reject);
        },
      );

      const answer = await answered;
      expect(answer.status, answer.text).toBe(201);
      // The connection ends after the answer instead of idling until the client's keep-alive timeout.
      expect(answer.connection).toBe("close");
      expect(JSON.parse(answer.text)).toMatchObject({ name: "created during shutdown", scopes: ["runtime:read"] });
      expect(await exited).toBe(0);
      expect(log.lines.some((line) => line.msg === "toolhost stopped")).toBe(true);
      expect(JSON.stringify(log.lines)).not.toContain(BOOTSTRAP_SECRET);
      expect(stderr).toBe("");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
