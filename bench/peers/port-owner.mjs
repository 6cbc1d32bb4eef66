/**
 * Which process listens on a local TCP port, found through /proc (the LISTEN socket's inode in
 * /proc/net/tcp, then the process holding a descriptor on it), so the suite can read the CPU of a
 * server it did not start (the machine's redis-server). Linux only; a process of another user whose
 * descriptors cannot be read is not found.
 */

import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const LISTEN = "0A";

/** Inodes of the sockets listening on `port`. */
function listeningInodes(port) {
  const inodes = new Set();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text;
    try {
      text = readFileSync(table, "latin1");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      if (Number.parseInt(fields[1].split(":")[1], 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The PID of the process listening on TCP `port`, or undefined. */
export function listenerPid(port) {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let pids;
  try {
    pids = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds;
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match && inodes.has(match[1])) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
