/** What the benchmarks ran on: node, CPU, cores, memory, and the python3 used as a reference. */

import { spawnSync } from "node:child_process";
import os from "node:os";

/**
 * @typedef {object} Machine
 * @property {string} node      node version
 * @property {string} cpu       CPU model from os.cpus()
 * @property {number} cores     logical cores from os.cpus()
 * @property {string} platform  OS, release and architecture
 * @property {string} memory    total memory
 * @property {string | null} python  python3 version, or null when python3 is absent
 * @property {number} loadAtStart  1-minute load average when the run started (other processes share the CPU)
 */

/** Describes this machine and the python3 on PATH. @returns {Machine} */
export function describeMachine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    python: pythonVersion(),
    loadAtStart: os.loadavg()[0],
  };
}

/** The version of `python3` on PATH, or null when it cannot be run. */
export function pythonVersion() {
  const run = spawnSync("python3", ["-c", "import sys; print(sys.version.split()[0])"], { encoding: "utf8" });
  if (run.error || run.status !== 0) return null;
  return run.stdout.trim();
}

/** Markdown lines describing the run: date, machine and load. @param {Machine} machine */
export function machineLines(machine, date = new Date()) {
  return [
    `- date: ${date.toISOString()}`,
    `- node: ${machine.node} (${machine.platform})`,
    `- CPU: ${machine.cpu}, ${machine.cores} cores; memory ${machine.memory}`,
    `- python3: ${machine.python ?? "absent (the Python reference was skipped)"}`,
    `- 1-minute load average: ${machine.loadAtStart.toFixed(2)} at the start of the run, ${os.loadavg()[0].toFixed(2)} at the end of this suite (${machine.cores} cores; other processes add noise)`,
  ];
}
