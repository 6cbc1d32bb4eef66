// The program around the commands: help, version, usage errors (exit 2), and `main` used in-process.
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/index.js";
import { runToolhost, tempDir } from "./run-toolhost.js";

const dir = tempDir("program");
afterAll(() => dir.remove());
const cwd = dir.path;
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

describe("toolhost program", () => {
  it("--help lists every command and exits 0", async () => {
    const run = await runToolhost(["--help"], { cwd });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Usage: toolhost /);
    expect(run.stdout).toMatch(/^ {2}measure /m);
    expect(run.stdout).toMatch(/^ {2}preview /m);
  });

  it.each([
    ["measure", ["measure", "--help"], ["(root)", "Exit status"]],
    ["preview", ["preview", "--help"], ["--budget <bytes>", "--type <type>", "16384", "(root)"]],
    ["measure", ["help", "measure"], ["(root)"]],
  ])("help for %s (%j) exits 0 and documents the command", async (command, args, mentions) => {
    const run = await runToolhost(args, { cwd });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(new RegExp(`^Usage: toolhost ${command} `));
    for (const mention of mentions) expect(run.stdout).toContain(mention);
  });

  it("--version prints the package version", async () => {
    const run = await runToolhost(["--version"], { cwd });
    expect(run).toEqual({ status: 0, stdout: `${manifest.version}\n`, stderr: "" });
  });

  it.each([
    [["measure", "--frobnicate"], "unknown option '--frobnicate'"],
    [["preview", "-x"], "unknown option '-x'"],
    [["--frobnicate"], "unknown option '--frobnicate'"],
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["preview", "--budget"], "argument missing"],
  ])("%j is a usage error: exit 2 and a message on stderr", async (args, message) => {
    const run = await runToolhost(args, { cwd });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^toolhost: error: /);
    expect(run.stderr).toContain(message);
  });

  it("without a command, prints help on stderr and exits 2", async () => {
    const run = await runToolhost([], { cwd });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^Usage: toolhost /);
  });

  it("main runs in-process on given streams and returns the status instead of exiting", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: string[] = [];
    const err: string[] = [];
    stdout.on("data", (chunk: Buffer) => out.push(chunk.toString("utf8")));
    stderr.on("data", (chunk: Buffer) => err.push(chunk.toString("utf8")));
    stdin.end('{"a": [1, 2]}');
    expect(await main(["measure"], { stdin, stdout, stderr })).toBe(0);
    expect(out.join("")).toBe(`${Buffer.byteLength('{"a":[1,2]}')}\n`);
    expect(await main(["measure", "--nope"], { stdin, stdout, stderr })).toBe(2);
    expect(err.join("")).toContain("unknown option '--nope'");
  });

  it("main can run many times on the same streams without piling up listeners", async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.resume();
    stderr.resume();
    for (let i = 0; i < 15; i++) {
      const stdin = new PassThrough();
      stdin.end("[]");
      expect(await main(["measure"], { stdin, stdout, stderr })).toBe(0);
    }
    expect(stdout.listenerCount("error")).toBe(1);
    expect(stderr.listenerCount("error")).toBe(1);
  });
});
