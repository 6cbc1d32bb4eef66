/** Runs python-reference.py on one text (through a temp file) and returns its byte count and timings. */

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("python-reference.py", import.meta.url));

/**
 * Times the Python reference on `text` under `policy` (see bench/lib/timing.mjs).
 * @returns {{ bytes: number, samples: number[] }}
 */
export function runPythonReference(text, policy) {
  const dir = mkdtempSync(join(tmpdir(), "toolhost-bench-"));
  try {
    const file = join(dir, "result.json");
    writeFileSync(file, text);
    const run = spawnSync("python3", [SCRIPT, file, JSON.stringify(policy)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 * 2 ** 20,
    });
    if (run.error) throw run.error;
    if (run.status !== 0) throw new Error(`python3 ${SCRIPT} exited with status ${run.status}`);
    const report = JSON.parse(run.stdout);
    return { bytes: report.bytes, samples: report.samples_ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
