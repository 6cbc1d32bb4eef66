// `toolhost measure`, through the real binary: wc-like output, refusals on stderr, strict UTF-8,
// thousands of files in one call.
import { spawn } from "node:child_process";
import { isProtocolError, measureText } from "@toolhost/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, referenceBytes, runCommand, runToolhost, TOOLHOST_BIN, tempDir } from "./run-toolhost.js";

const dir = tempDir("measure");
afterAll(() => dir.remove());
const cwd = dir.path;

// Whitespace, non-ASCII (2-, 3- and 4-byte UTF-8), escapes that compact differently from their source.
const TASKS = `{
  "next_cursor": "page-2",
  "tasks": [ { "id": 1, "title": "Caf\\u00e9 \\/ 中文标题 😀", "done": false },
             { "id": 2, "title": "line\\nbreak \\"quoted\\" tab\\t", "tags": [] } ],
  "owner": null
}
`;
const SMALL = '{"ok":true}';
const EMPTY_ARRAY = "[ ]";
dir.write("tasks.json", TASKS);
dir.write("small.json", SMALL);
dir.write("empty.json", EMPTY_ARRAY);

/** The refusal a lone surrogate at /items/1/title gets from the protocol, to compare the line with. */
const LONE_SURROGATE = '{"items": [{"title": "fine"}, {"title": "half a pair: \\ud83d"}]}';
dir.write("lone.json", LONE_SURROGATE);
function protocolRefusal(text: string): { code: string; pointer: string | undefined; message: string } {
  try {
    measureText(text);
  } catch (error) {
    if (isProtocolError(error)) return { code: error.code, pointer: error.pointer, message: error.message };
  }
  throw new Error("expected the protocol to refuse the text");
}

describe("toolhost measure", () => {
  it("prints the byte measure of one file, without its name", async () => {
    const run = await runToolhost(["measure", "tasks.json"], { cwd });
    const expected = referenceBytes(TASKS);
    // The measure is of the compact form, not of the file: the test input is chosen so they differ.
    expect(expected).not.toBe(Buffer.byteLength(TASKS));
    expect(run).toEqual({ status: 0, stdout: `${expected}\n`, stderr: "" });
  });

  it("prints COUNT NAME lines in argument order when several files are given", async () => {
    const run = await runToolhost(["measure", "tasks.json", "small.json", "empty.json", "small.json"], { cwd });
    const lines = [
      `${referenceBytes(TASKS)} tasks.json`,
      `${referenceBytes(SMALL)} small.json`,
      `${referenceBytes(EMPTY_ARRAY)} empty.json`,
      `${referenceBytes(SMALL)} small.json`,
    ];
    expect(run).toEqual({ status: 0, stdout: `${lines.join("\n")}\n`, stderr: "" });
  });

  it("reads standard input when no file is given", async () => {
    const run = await runToolhost(["measure"], { cwd, input: TASKS });
    expect(run).toEqual({ status: 0, stdout: `${referenceBytes(TASKS)}\n`, stderr: "" });
  });

  it("reads standard input where '-' is named, and names it '-'", async () => {
    const run = await runToolhost(["measure", "small.json", "-"], { cwd, input: TASKS });
    const stdout = `${referenceBytes(SMALL)} small.json\n${referenceBytes(TASKS)} -\n`;
    expect(run).toEqual({ status: 0, stdout, stderr: "" });
  });

  it("refuses a lone surrogate with one exact stderr line, exits 1 and still measures the other files", async () => {
    const run = await runToolhost(["measure", "small.json", "lone.json", "tasks.json"], { cwd });
    const refusal = protocolRefusal(LONE_SURROGATE);
    expect(refusal.code).toBe("lone_surrogate");
    expect(refusal.pointer).toBe("/items/1/title");
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`toolhost: lone.json: lone_surrogate at /items/1/title: ${refusal.message}\n`);
    expect(run.stdout).toBe(`${referenceBytes(SMALL)} small.json\n${referenceBytes(TASKS)} tasks.json\n`);
  });

  it("shows the root pointer as (root)", async () => {
    const text = '{"a": 1,}';
    dir.write("trailing-comma.json", text);
    const run = await runToolhost(["measure", "trailing-comma.json"], { cwd });
    const refusal = protocolRefusal(text);
    expect(refusal.pointer).toBe("");
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr: `toolhost: trailing-comma.json: invalid_json at (root): ${refusal.message}\n`,
    });
  });

  it("refuses input from standard input under the name '-'", async () => {
    const run = await runToolhost(["measure"], { cwd, input: LONE_SURROGATE });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^toolhost: -: lone_surrogate at \/items\/1\/title: .+\n$/);
  });

  it("reports a missing file and a directory with their errno codes, exits 1, measures the rest", async () => {
    const run = await runToolhost(["measure", "missing.json", "small.json", "."], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(`${referenceBytes(SMALL)} small.json\n`);
    const lines = run.stderr.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^toolhost: missing\.json: ENOENT: no such file or directory$/);
    expect(lines[1]).toMatch(/^toolhost: \.: EISDIR: \S.*$/);
    expect(lines[2]).toBe("");
  });

  it("refuses bytes that are not UTF-8 as invalid_json at (root), naming the byte offset", async () => {
    const prefix = Buffer.from('{"name": "caf', "utf8");
    // Latin-1 "é" (0xE9) followed by '"' is not a UTF-8 sequence.
    dir.write("latin1.json", Buffer.concat([prefix, Buffer.from([0xe9]), Buffer.from('"}', "utf8")]));
    const run = await runToolhost(["measure", "latin1.json", "small.json"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(`${referenceBytes(SMALL)} small.json\n`);
    expect(run.stderr).toMatch(/^toolhost: latin1\.json: invalid_json at \(root\): .*not UTF-8.*\n$/);
    expect(run.stderr).toContain(`byte offset ${prefix.length}`);
  });

  it("refuses a leading UTF-8 byte-order mark as invalid_json, as the API does", async () => {
    dir.write("bom.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TASKS, "utf8")]));
    const run = await runToolhost(["measure", "bom.json"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^toolhost: bom\.json: invalid_json at \(root\): .*byte order mark.*\n$/);
  });

  it("measures 3000 files in one call, in argument order, with at most 64 file descriptors", async () => {
    const many = tempDir("measure-many");
    try {
      const count = 3000;
      const names: string[] = [];
      const contents = new Map<string, string>();
      for (let i = 0; i < count; i++) {
        const name = `f${String(i).padStart(4, "0")}.json`;
        // Sizes vary, so a line out of place shows up as a wrong count, not only a wrong name.
        const content = `{"i": ${i}, "pad": "${"é".repeat(i % 37)}", "list": [${"1, ".repeat(i % 11)}0]}`;
        many.write(name, content);
        contents.set(name, content);
        names.push(name);
      }
      // A permutation of the names (7 is coprime with 3000), so argument order is not directory order.
      const order = names.map((_, i) => names[(i * 7) % count] as string);
      // Under `ulimit -n 64`, opening every file at once fails with EMFILE.
      const run = await runCommand(
        "sh",
        ["-c", 'ulimit -n 64 && exec "$0" "$@"', process.execPath, TOOLHOST_BIN, "measure", ...order],
        { cwd: many.path },
      );
      const expected = order.map((name) => `${referenceBytes(contents.get(name) as string)} ${name}\n`).join("");
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(expected);
    } finally {
      many.remove();
    }
  });

  it("stops quietly with status 1 when the reader of standard output goes away (EPIPE)", async () => {
    const many = tempDir("measure-epipe");
    try {
      // Long names make the output far larger than a pipe buffer, so the writer must hit the closed pipe.
      const names: string[] = [];
      for (let i = 0; i < 2000; i++) names.push(many.write(`${"long-name-".repeat(10)}${i}.json`, SMALL));
      const result = await new Promise<{ status: number | null; stderr: string; firstLine: string }>(
        (resolve, reject) => {
          const child = spawn(process.execPath, [TOOLHOST_BIN, "measure", ...names], { cwd: many.path });
          let stderr = "";
          let firstLine = "";
          child.stderr.on("data", (chunk: Buffer) => {
            stderr += chunk.toString("utf8");
          });
          child.stdout.once("data", (chunk: Buffer) => {
            firstLine = chunk.toString("utf8").split("\n")[0] ?? "";
            child.stdout.destroy();
          });
          child.on("error", reject);
          child.on("close", (status) => resolve({ status, stderr, firstLine }));
        },
      );
      expect(result.firstLine).toBe(`${referenceBytes(SMALL)} ${names[0]}`);
      expect(result).toMatchObject({ status: 1, stderr: "" });
    } finally {
      many.remove();
    }
  });

  it("runs through the node_modules/.bin/toolhost link from the repository root", async () => {
    const file = `${cwd}/tasks.json`;
    const run = await runCommand(`${REPO_ROOT}node_modules/.bin/toolhost`, ["measure", file], { cwd: REPO_ROOT });
    expect(run).toEqual({ status: 0, stdout: `${referenceBytes(TASKS)}\n`, stderr: "" });
  });
});
