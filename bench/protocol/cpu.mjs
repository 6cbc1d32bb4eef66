/**
 * Where the CPU went during a measured window (Linux /proc; elsewhere the server, PostgreSQL and
 * machine figures are absent): this load process (`process.cpuUsage`), the server process
 * (`/proc/<pid>/stat` utime + stime), every process named `postgres` (other users of the cluster
 * count too), and the whole machine (`/proc/stat`: all but idle and iowait).
 */

import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's counters (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` in ms, or undefined when it cannot be read. */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command may hold spaces; fields after its closing parenthesis start at the state (field 3).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU ms of every process named `postgres`, or undefined when /proc cannot be listed. */
function postgresCpuMs() {
  let total = 0;
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "latin1").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    total += processCpuMs(entry) ?? 0;
  }
  return total;
}

/** Busy CPU ms of the whole machine (every core), or undefined. */
function machineBusyMs() {
  try {
    const line = readFileSync("/proc/stat", "latin1").split("\n")[0];
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is everything but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = ticks;
    return ((user + nice + system + irq + softirq + steal) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** A reading of every counter; `cpuSplit(a, b)` turns two readings into shares. */
export function readCpu(serverPid, withPostgres) {
  const own = process.cpuUsage();
  return {
    atMs: performance.now(),
    loadMs: (own.user + own.system) / 1000,
    serverMs: processCpuMs(serverPid),
    postgresMs: withPostgres ? postgresCpuMs() : undefined,
    machineMs: machineBusyMs(),
  };
}

/**
 * CPU used between two readings, in cores (1.0 = one core busy the whole time).
 * @returns {{ load: number, server: number | undefined, postgres: number | undefined, machine: number | undefined }}
 */
export function cpuSplit(before, after) {
  const wall = after.atMs - before.atMs;
  const share = (key) =>
    before[key] === undefined || after[key] === undefined ? undefined : (after[key] - before[key]) / wall;
  return {
    load: share("loadMs"),
    server: share("serverMs"),
    postgres: share("postgresMs"),
    machine: share("machineMs"),
  };
}
