// `redocly lint` (the recommended rules, packages/server/redocly.yaml) on the served OpenAPI document:
// zero errors and zero warnings, without any network access.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { describeDialect } from "../support/test-databases.js";
import { startTestServer } from "./http-harness.js";

const run = promisify(execFile);
const repository = fileURLToPath(new URL("../../../../", import.meta.url));
const redocly = join(repository, "node_modules/@redocly/cli/bin/cli.js");
const config = join(repository, "packages/server/redocly.yaml");
const noNetwork = fileURLToPath(new URL("./fixtures/no-network.cjs", import.meta.url));
const directory = mkdtempSync(join(tmpdir(), "toolhost-redocly-"));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeDialect("sqlite", "redocly lint", () => {
  it("finds no error and no warning in the served document, offline", async () => {
    const server = await startTestServer("sqlite");
    const document = join(directory, "openapi.json");
    writeFileSync(document, (await server.call("GET", "/v1/openapi.json")).text);
    const networkLog = join(directory, "network.log");
    const { stdout } = await run(
      process.execPath,
      ["--require", noNetwork, redocly, "lint", document, "--config", config, "--format", "json"],
      {
        cwd: directory,
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          TOOLHOST_NETWORK_LOG: networkLog,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(existsSync(networkLog) ? readFileSync(networkLog, "utf8") : "").toBe("");
  }, 120_000);
});
