/**
 * A PostgreSQL cluster of the test's own, to stop and start at will (outage tests): `initdb` into a
 * temp directory, `pg_ctl` on a free port of 127.0.0.1, trust authentication, no fsync. As root the
 * binaries run as the `postgres` OS user (PostgreSQL refuses to run as root), through `runuser`.
 *
 * Every cluster made here is stopped (`-m immediate`) and its directory removed after the test file,
 * on process exit, and — should the test process be killed outright — by a small watchdog shell that
 * waits for the test process to end; each step is bounded in time.
 */

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** Longest any one `initdb`/`pg_ctl` step may take before the test fails instead of hanging. */
const STEP_TIMEOUT_MS = 60_000;

/** Where the binaries are, and who runs them; or why there are none. */
interface Binaries {
  readonly bin: string;
  /** `runuser -u postgres --` when running as root, else nothing. */
  readonly asUser: readonly string[];
  /** The uid/gid that must own the cluster's directory (root only). */
  readonly owner: { uid: number; gid: number } | undefined;
}

function findBinaries(): Binaries | string {
  const candidates: string[] = [];
  if (process.env.TOOLHOST_TEST_PG_BIN !== undefined) candidates.push(process.env.TOOLHOST_TEST_PG_BIN);
  const config = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (config.status === 0) candidates.push(config.stdout.trim());
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(join(debian, version, "bin"));
  }
  const bin = candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
  if (bin === undefined) return "no initdb/pg_ctl found (set TOOLHOST_TEST_PG_BIN, or install PostgreSQL)";
  if (process.getuid?.() !== 0) return { bin, asUser: [], owner: undefined };
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return "running as root and there is no `postgres` OS user to run initdb";
  return {
    bin,
    asUser: ["runuser", "-u", "postgres", "--"],
    owner: { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) },
  };
}

const found = findBinaries();

/** Why no throwaway cluster can be made here, or undefined when one can. */
export const THROWAWAY_POSTGRES_PROBLEM: string | undefined = typeof found === "string" ? found : undefined;

/** A running (or stopped) throwaway cluster. */
export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server at once (`-m immediate`: like a crash, clients see their connections cut). */
  stop(): void;
  /** Starts it again on the same port and data (crash recovery runs first). */
  start(): void;
  /**
   * Freezes every process of the server (SIGSTOP): connections stay open and new ones are accepted by
   * the kernel, but nothing answers — a hung server, a stalled disk, a paused VM.
   */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
  /** Stops the server (if running) and removes its directory; calling it again is harmless. */
  dispose(): void;
}

const clusters = new Set<ThrowawayPostgres>();

function disposeAll(): void {
  for (const cluster of [...clusters]) cluster.dispose();
}

afterAll(disposeAll);
// A test process ending without afterAll (a crash, a timeout) still stops its servers.
process.once("exit", disposeAll);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A detached shell that outlives a killed test process: once that process is gone, it stops the
 * cluster and removes its directory. A normal dispose kills it first.
 */
function startWatchdog(pgCtl: readonly string[], data: string, dir: string) {
  const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
    `${pgCtl.map(quote).join(" ")} -D ${quote(data)} -m immediate -w -t 30 stop >/dev/null 2>&1`,
    `rm -rf ${quote(dir)}`,
  ].join("\n");
  const child = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  child.unref();
  return child;
}

/** Sends `signal` to the cluster's postmaster and every process it started. */
function signalServer(data: string, signal: NodeJS.Signals): void {
  const pidFile = join(data, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const postmaster = Number(readFileSync(pidFile, "utf8").split("\n", 1)[0]);
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" });
  const pids = children.stdout
    .split("\n")
    .map(Number)
    .filter((pid) => pid > 0);
  // The postmaster first when freezing or killing (it starts no new process), last when thawing.
  const order = signal === "SIGCONT" ? [...pids, postmaster] : [postmaster, ...pids];
  for (const pid of order) {
    try {
      process.kill(pid, signal);
    } catch {
      // Ended meanwhile.
    }
  }
}

/** Makes and starts a fresh cluster; throws THROWAWAY_POSTGRES_PROBLEM when none can be made. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  if (typeof found === "string") throw new Error(`cannot make a throwaway PostgreSQL: ${found}`);
  const { bin, asUser, owner } = found;
  const dir = mkdtempSync(join(tmpdir(), "toolhost-pg-"));
  if (owner !== undefined) {
    chownSync(dir, owner.uid, owner.gid);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, "data");
  const run = (tool: string, args: readonly string[]): void => {
    const command = [...asUser, join(bin, tool), ...args];
    execFileSync(command[0] as string, command.slice(1), {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: STEP_TIMEOUT_MS,
    });
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const watchdog = startWatchdog([...asUser, join(bin, "pg_ctl")], data, dir);
  const port = await freePort();
  // Unix sockets in the cluster's own directory; fsync off: the test needs no durability from its disk.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  let running = false;
  let disposed = false;
  const cluster: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => {
      run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-o", serverOptions, "-w", "-t", "30", "start"]);
      running = true;
    },
    stop: () => {
      if (!running) return;
      running = false;
      cluster.thaw();
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]);
    },
    freeze: () => signalServer(data, "SIGSTOP"),
    thaw: () => signalServer(data, "SIGCONT"),
    dispose: () => {
      if (disposed) return;
      disposed = true;
      clusters.delete(cluster);
      try {
        watchdog.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      try {
        // Stopped even when the last start or stop failed half-way: whatever a pid file names.
        if (existsSync(join(data, "postmaster.pid"))) {
          running = true;
          cluster.stop();
        }
      } catch {
        // pg_ctl failed or timed out: end the processes the hard way.
        signalServer(data, "SIGKILL");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  clusters.add(cluster);
  try {
    cluster.start();
  } catch (error) {
    cluster.dispose();
    throw error;
  }
  return cluster;
}
