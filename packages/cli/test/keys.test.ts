// `toolhost keys create|list|revoke` through the real binary, straight on the database: the secret is
// printed once, the key works against `toolhost serve`, listing never shows secrets, revocation takes
// effect, and bad options or a missing database are reported in one line.
import { SCOPE_NAMES } from "@toolhost/protocol/wire";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SHOWN_SCOPES } from "../src/commands/keys.js";
import { runToolhost, tempDir } from "./run-toolhost.js";
import { type ServeProcess, startServe } from "./serve-process.js";

const dir = tempDir("keys");
afterAll(() => dir.remove());
const cwd = dir.path;
const DB = ["--db", "sqlite:keys.db"];

describe("toolhost keys", () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    expect((await runToolhost(["migrate", ...DB], { cwd })).status).toBe(0);
  });
  afterAll(async () => {
    await serve?.stop();
  });

  it("refuses a SQLite database that does not exist instead of creating it", async () => {
    for (const args of [
      ["keys", "list"],
      ["keys", "create", "--name", "x", "--scopes", "admin"],
      ["keys", "revoke", "key_x"],
    ]) {
      const run = await runToolhost([...args, "--db", "sqlite:missing.db"], { cwd });
      expect(run.status, args.join(" ")).toBe(1);
      expect(run.stderr).toBe(
        "toolhost: database sqlite:missing.db does not exist; run 'toolhost migrate' (or start 'toolhost serve') first\n",
      );
    }
    expect((await runToolhost(["keys", "list", "--db", "sqlite:missing.db"], { cwd })).status).toBe(1);
  });

  it("creates a key whose secret works against the server, lists it, and revokes it", async () => {
    const created = await runToolhost(["keys", "create", "--name", "ops", "--scopes", "admin", ...DB], { cwd });
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^th_[A-Za-z0-9_-]{43}\n$/);
    const secret = created.stdout.trim();
    const keyId = /created key (key_[0-9a-z]{26}) \(admin\)/.exec(created.stderr)?.[1];
    expect(keyId).toBeDefined();
    expect(created.stderr).not.toContain(secret);

    serve = await startServe(["--port", "0", ...DB], {}, cwd);
    const listed = await fetch(`${serve.url}/v1/keys`, { headers: { authorization: `Bearer ${secret}` } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { data: Array<{ key_id: string; name: string; agents: unknown }> };
    expect(body.data).toEqual([expect.objectContaining({ key_id: keyId, name: "ops", agents: "*", bindings: "*" })]);

    const list = await runToolhost(["keys", "list", ...DB], { cwd });
    expect(list.status).toBe(0);
    const [header, line, ...rest] = list.stdout.split("\n");
    expect(header).toBe("KEY_ID\tNAME\tSCOPES\tAGENTS\tBINDINGS\tCONNECTIONS\tCREATED\tREVOKED");
    expect(line).toMatch(new RegExp(`^${keyId}\\tops\\tadmin\\t\\*\\t\\*\\t\\*\\t\\d{4}-\\d\\d-\\d\\dT[^\\t]+Z\\t-$`));
    expect(rest).toEqual([""]);
    expect(list.stdout).not.toContain(secret);

    const revoked = await runToolhost(["keys", "revoke", keyId as string, ...DB], { cwd });
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ${keyId} at \\d{4}-.+Z\\n$`));
    const again = await runToolhost(["keys", "revoke", keyId as string, "--json", ...DB], { cwd });
    const firstTime = revoked.stdout.trim().split(" at ")[1];
    expect(JSON.parse(again.stdout)).toEqual({ key_id: keyId, revoked: true, revoked_at: firstTime });
    // A running server on the same SQLite file refuses the key once its cached identity expires
    // (identityCacheTtlMs, 1 s): SQLite has no channel to tell it sooner (PostgreSQL servers are told).
    await vi.waitFor(
      async () => {
        const refused = await fetch(`${serve.url}/v1/keys`, { headers: { authorization: `Bearer ${secret}` } });
        expect(refused.status).toBe(401);
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it("prints the created key as JSON with --json, with narrowed agent, binding and connection scopes", async () => {
    const run = await runToolhost(
      [
        "keys",
        "create",
        "--json",
        "--name",
        "reader",
        "--scopes",
        "runtime:read, tools:execute",
        "--agents",
        "agent_a,agent_b",
        "--bindings",
        "",
        "--connections",
        "eu-openai",
        ...DB,
      ],
      { cwd },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const created = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(created)).toEqual([
      "key_id",
      "name",
      "scopes",
      "agents",
      "bindings",
      "connections",
      "created_at",
      "key",
    ]);
    expect(created).toMatchObject({
      name: "reader",
      scopes: ["runtime:read", "tools:execute"],
      agents: ["agent_a", "agent_b"],
      bindings: [],
      connections: ["eu-openai"],
    });
    const list = await runToolhost(["keys", "list", "--json", ...DB], { cwd });
    const lines = list.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toEqual({ ...created, key: undefined, revoked_at: null });
    expect(list.stdout).not.toContain(created.key as string);
  });

  it.each([
    [["--name", "x", "--scopes", "admin,root"], /^toolhost: --scopes: validation_failed at \/scopes\/1: /],
    [["--name", "x", "--scopes", "admin,admin"], /^toolhost: --scopes: validation_failed at \/scopes: /],
    [["--name", "", "--scopes", "admin"], /^toolhost: --name: validation_failed at \/name: /],
    [["--name", "x", "--scopes", "admin", "--agents", "bad id"], /^toolhost: --agents: validation_failed at \/agents/],
    [
      ["--name", "x", "--scopes", "admin", "--connections", "Upper"],
      /^toolhost: --connections: validation_failed at \/connections/,
    ],
    [["--scopes", "admin"], /^toolhost: error: required option '--name <name>' not specified/],
  ])("keys create %j is a usage error (exit 2)", async (args, message) => {
    const run = await runToolhost(["keys", "create", ...args, ...DB], { cwd });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
  });

  it("fails with status 1 for an unknown key ID", async () => {
    const run = await runToolhost(["keys", "revoke", "key_unknown", ...DB], { cwd });
    expect(run).toEqual({ status: 1, stdout: "", stderr: "toolhost: key key_unknown not found\n" });
  });

  it("lists exactly the wire's scopes in its help", async () => {
    expect(SHOWN_SCOPES).toEqual(SCOPE_NAMES);
    const help = await runToolhost(["keys", "create", "--help"], { cwd });
    expect(help.stdout.replace(/\s+/g, " ")).toContain(SCOPE_NAMES.join(", "));
  });
});
