// `toolhost migrate` through the real binary: applies every migration to a new SQLite file, says
// "up to date" the second time, reads TOOLHOST_DATABASE_URL, and reports failures in one line.
import { MIGRATION_NAMES } from "@toolhost/server";
import { afterAll, describe, expect, it } from "vitest";
import { runToolhost, tempDir } from "./run-toolhost.js";

const dir = tempDir("migrate");
afterAll(() => dir.remove());
const cwd = dir.path;
const NEWEST = MIGRATION_NAMES[MIGRATION_NAMES.length - 1];

describe("toolhost migrate", () => {
  it("applies every migration once, then says up to date", async () => {
    const first = await runToolhost(["migrate", "--db", "sqlite:m.db"], { cwd });
    expect(first).toEqual({
      status: 0,
      stdout: MIGRATION_NAMES.map((name) => `applied ${name}\n`).join(""),
      stderr: "",
    });
    const second = await runToolhost(["migrate", "--db", "sqlite:m.db"], { cwd });
    expect(second).toEqual({ status: 0, stdout: `up to date (${NEWEST})\n`, stderr: "" });
  });

  it("uses TOOLHOST_DATABASE_URL when --db is not given", async () => {
    const env = { PATH: process.env.PATH, TOOLHOST_DATABASE_URL: "sqlite:from-env.db" };
    const run = (args: string[]) => runToolhost(args, { cwd, env });
    expect((await run(["migrate"])).stdout).toMatch(/^applied 0001_/);
    expect((await run(["migrate", "--db", "sqlite:from-env.db"])).stdout).toBe(`up to date (${NEWEST})\n`);
  });

  it("reports a database it cannot reach in one line, exit 1", async () => {
    const run = await runToolhost(["migrate", "--db", "postgres://nobody:secret-pw@127.0.0.1:1/nothing"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^toolhost: postgres:\/\/nobody:\*\*\*\*@127\.0\.0\.1:1\/nothing: .+\n$/);
    expect(run.stderr).not.toContain("secret-pw");
  });

  it("refuses a malformed database URL as a usage error", async () => {
    const run = await runToolhost(["migrate", "--db", "sqlite:"], { cwd });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^toolhost: --db: database URL sqlite: needs a path/);
  });
});
