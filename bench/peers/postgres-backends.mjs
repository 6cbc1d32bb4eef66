/**
 * PostgreSQL CPU spent for one client process only: the backends serving that process's TCP
 * connections to the server (found through /proc: the process's socket inodes, /proc/net/tcp for
 * their local ports, pg_stat_activity for the backend of each port), their utime + stime summed.
 * Other users of the shared cluster (other test runs on this machine) do not count. Linux only;
 * elsewhere undefined. Background processes (WAL writer, checkpointer) are not counted.
 */

import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const TICKS_PER_SECOND = 100;

function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Local ports of `pid`'s TCP connections to `serverPort`. */
function clientPorts(pid, serverPort) {
  const inodes = new Set();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match) inodes.add(match[1]);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return undefined;
  }
  const ports = new Set();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text;
    try {
      text = readFileSync(table, "latin1");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const local = Number.parseInt(fields[1].split(":")[1], 16);
      const remote = Number.parseInt(fields[2].split(":")[1], 16);
      if (remote === serverPort && inodes.has(fields[9])) ports.add(local);
    }
  }
  return ports;
}

/**
 * The backend PIDs serving `pid`'s connections, asked through `admin` (a connected pg.Client of
 * another process, whose own backend is not among them).
 */
export async function backendsOf(admin, pid, serverPort = 5432) {
  const ports = clientPorts(pid, serverPort);
  if (ports === undefined) return [];
  const rows = await admin.query("select pid, client_port from pg_stat_activity where client_port is not null");
  return rows.rows.filter((row) => ports.has(Number(row.client_port))).map((row) => Number(row.pid));
}

/** utime + stime (ms) of each backend in `pids` that still exists. */
export function backendCpuMs(pids) {
  const readings = new Map();
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms !== undefined) readings.set(pid, ms);
  }
  return readings;
}

/**
 * CPU ms the backends used between two readings; a backend seen only in the later one started
 * meanwhile (a pool growing) and counts whole.
 */
export function backendCpuSpent(before, after) {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** utime + stime (ms) of process `pid`. */
export { processCpuMs };
