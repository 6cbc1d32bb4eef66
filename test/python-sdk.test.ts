// The Python executor SDK's own tests (sdk/python/tests, `python3 -m unittest`) inside `npm test`,
// once per dialect: against a real `toolhost serve` on a fresh SQLite file, and on a fresh PostgreSQL
// schema (passed as TOOLHOST_PYTHON_TEST_DATABASE_URL). A failing Python test fails this one, with
// unittest's report as the message. Skips (saying so) only where python3 is missing, never under CI=true.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeEachDialect, testDatabaseUrl } from "../packages/server/test/support/test-databases.js";

const SDK = fileURLToPath(new URL("../sdk/python", import.meta.url));
const PYTHON = process.env.TOOLHOST_PYTHON ?? "python3";
const version = spawnSync(PYTHON, ["--version"], { encoding: "utf8" });
const pythonMissing = version.status !== 0;
const requirePython = process.env.CI === "true";
if (pythonMissing && !requirePython) console.warn(`${PYTHON} is missing: skipping the Python SDK's tests`);

/** Runs unittest discovery in sdk/python/tests; answers its exit code and output. */
function unittest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, ["-m", "unittest", "discover", "-s", "tests", "-t", "tests"], {
      cwd: SDK,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

describeEachDialect("Python SDK (sdk/python)", (dialect) => {
  it.skipIf(pythonMissing && !requirePython)(
    "passes python3 -m unittest against a real server",
    {
      timeout: 300_000,
    },
    async () => {
      expect(version.status, `${PYTHON} --version: ${version.stderr}`).toBe(0);
      const env: Record<string, string> = {};
      if (dialect === "postgres") {
        const database = await testDatabaseUrl("postgres");
        env.TOOLHOST_PYTHON_TEST_DATABASE_URL = database.url;
      }
      const { code, output } = await unittest(env);
      expect(code, output).toBe(0);
      expect(output).toMatch(/Ran [1-9][0-9]* tests?/);
      expect(output).not.toMatch(/skipped/);
    },
  );
});
