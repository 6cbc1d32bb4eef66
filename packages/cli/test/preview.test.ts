// `toolhost preview`, through the real binary: the context_preview object, exact compact output,
// truncation under a budget, protected result types, option validation.
import { RESULT_TYPES } from "@toolhost/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { referenceBytes, runToolhost, tempDir } from "./run-toolhost.js";

const dir = tempDir("preview");
afterAll(() => dir.remove());
const cwd = dir.path;

interface Preview {
  max_result_context_bytes: number;
  original_bytes: number;
  retained_bytes: number;
  truncated: boolean;
  result: unknown;
}

interface TruncatedResult {
  truncation: { original_bytes: number; omitted_bytes: number; notice: string };
  preserved_fields: Record<string, unknown>;
  preview: { head: string; tail: string };
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

/** Parses preview output, checking it is one line of compact JSON with the docs/projection.md keys in order. */
function parsePreview(stdout: string): Preview {
  expect(stdout.endsWith("\n")).toBe(true);
  const preview = JSON.parse(stdout) as Preview;
  // Compact: re-serialising the parsed value (no floats, no big integers here) gives the same text.
  expect(stdout).toBe(`${JSON.stringify(preview)}\n`);
  expect(Object.keys(preview)).toEqual([
    "max_result_context_bytes",
    "original_bytes",
    "retained_bytes",
    "truncated",
    "result",
  ]);
  return preview;
}

const SMALL = `{ "status": "ok", "items": [ {"id": "a-1", "title": "première"}, {"id": "a-2", "title": "второй"} ] }`;
dir.write("small.json", SMALL);

// About 30 KB of compact JSON: over the default budget, with status and paging fields to preserve.
const LARGE_VALUE = {
  status: "ok",
  count: 300,
  data: {
    next_cursor: "page-2",
    items: Array.from({ length: 300 }, (_, i) => ({ id: `item-${i}`, title: `Task ${i}: ${"описание ".repeat(5)}` })),
  },
};
const LARGE = JSON.stringify(LARGE_VALUE, null, 1);
dir.write("large.json", LARGE);

describe("toolhost preview", () => {
  it("prints a small result whole, with the default budget of 16384", async () => {
    const run = await runToolhost(["preview", "small.json"], { cwd });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const bytes = referenceBytes(SMALL);
    expect(parsePreview(run.stdout)).toEqual({
      max_result_context_bytes: 16384,
      original_bytes: bytes,
      retained_bytes: bytes,
      truncated: false,
      result: JSON.parse(SMALL),
    });
  });

  it("reads the result from standard input", async () => {
    const fromFile = await runToolhost(["preview", "--budget", "2048", "small.json"], { cwd });
    const fromStdin = await runToolhost(["preview", "--budget", "2048"], { cwd, input: SMALL });
    const fromDash = await runToolhost(["preview", "--budget", "2048", "-"], { cwd, input: SMALL });
    expect(fromFile.status).toBe(0);
    expect(fromStdin).toEqual(fromFile);
    expect(fromDash).toEqual(fromFile);
  });

  it("keeps big integers and the sender's key order exactly", async () => {
    const text = '{"zeta": 1, "id": 12345678901234567890, "alpha": [-0, 100000000000000000000000000001]}';
    dir.write("big.json", text);
    const run = await runToolhost(["preview", "big.json"], { cwd });
    expect(run.status).toBe(0);
    // Python writes -0 as 0; everything else keeps the sender's digits and order.
    const result = '{"zeta":1,"id":12345678901234567890,"alpha":[0,100000000000000000000000000001]}';
    expect(run.stdout).toContain(`,"result":${result}}\n`);
    const bytes = Buffer.byteLength(result, "utf8");
    expect(run.stdout).toBe(
      `{"max_result_context_bytes":16384,"original_bytes":${bytes},"retained_bytes":${bytes},"truncated":false,"result":${result}}\n`,
    );
  });

  it("cuts a large result to the budget: head and tail of its compact text, status fields preserved", async () => {
    const budget = 2048;
    const run = await runToolhost(["preview", "--budget", String(budget), "large.json"], { cwd });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const preview = parsePreview(run.stdout);
    const original = referenceBytes(LARGE);
    expect(original).toBeGreaterThan(16384);
    expect(preview.max_result_context_bytes).toBe(budget);
    expect(preview.original_bytes).toBe(original);
    expect(preview.truncated).toBe(true);
    expect(preview.retained_bytes).toBeLessThanOrEqual(budget);
    expect(preview.retained_bytes).toBe(bytesOf(preview.result));

    const result = preview.result as TruncatedResult;
    expect(Object.keys(result)).toEqual(["truncation", "preserved_fields", "preview"]);
    const compactText = JSON.stringify(LARGE_VALUE);
    expect(compactText.startsWith(result.preview.head)).toBe(true);
    expect(compactText.endsWith(result.preview.tail)).toBe(true);
    expect(result.preview.head.length).toBeGreaterThan(0);
    expect(result.preview.tail.length).toBeGreaterThan(0);
    expect(result.truncation.original_bytes).toBe(original);
    expect(result.truncation.omitted_bytes).toBe(
      original - Buffer.byteLength(result.preview.head) - Buffer.byteLength(result.preview.tail),
    );
    expect(result.preserved_fields).toMatchObject({
      status: LARGE_VALUE.status,
      count: LARGE_VALUE.count,
      "data.next_cursor": LARGE_VALUE.data.next_cursor,
    });
  });

  it("cuts to 16384 bytes when no --budget is given", async () => {
    const run = await runToolhost(["preview", "large.json"], { cwd });
    const preview = parsePreview(run.stdout);
    expect(preview.max_result_context_bytes).toBe(16384);
    expect(preview.truncated).toBe(true);
    expect(preview.retained_bytes).toBeLessThanOrEqual(16384);
  });

  it.each(["submission", "opaque"])("never cuts a --type %s result", async (type) => {
    const run = await runToolhost(["preview", "--budget", "1024", "--type", type, "large.json"], { cwd });
    expect(run.status).toBe(0);
    const original = referenceBytes(LARGE);
    expect(parsePreview(run.stdout)).toEqual({
      max_result_context_bytes: 1024,
      original_bytes: original,
      retained_bytes: original,
      truncated: false,
      result: LARGE_VALUE,
    });
  });

  it("cuts only the text blocks of a --type multimodal result", async () => {
    const text = `Report: ${"line of findings\n".repeat(400)}end.`;
    const image = { type: "image", mime_type: "image/png", data: "iVBORw0KGgo".repeat(2000) };
    const value = { content: [{ type: "text", text }, image] };
    dir.write("multimodal.json", JSON.stringify(value));
    const run = await runToolhost(["preview", "--budget", "1024", "--type", "multimodal", "multimodal.json"], { cwd });
    expect(run.status).toBe(0);
    const preview = parsePreview(run.stdout);
    expect(preview.truncated).toBe(true);
    expect(preview.original_bytes).toBe(bytesOf(value));
    const content = (preview.result as { content: [{ type: string; text: string }, unknown] }).content;
    expect(content[1]).toEqual(image);
    expect(content[0].type).toBe("text");
    expect(content[0].text.length).toBeLessThan(text.length);
    expect(text.startsWith(content[0].text.slice(0, 20))).toBe(true);
    expect(text.endsWith(content[0].text.slice(-4))).toBe(true);
    // The image does not count against the budget; the rest does.
    expect(preview.retained_bytes - bytesOf(image)).toBeLessThanOrEqual(1024);
    expect(preview.retained_bytes).toBe(bytesOf(preview.result));
  });

  it("indents with --pretty, same value as the compact output", async () => {
    const compactRun = await runToolhost(["preview", "--budget", "2048", "large.json"], { cwd });
    const prettyRun = await runToolhost(["preview", "--budget", "2048", "--pretty", "large.json"], { cwd });
    expect(prettyRun.status).toBe(0);
    const value: unknown = JSON.parse(compactRun.stdout);
    expect(prettyRun.stdout).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("refuses a result the protocol refuses: one stderr line, nothing on stdout, exit 1", async () => {
    dir.write("lone.json", '{"status": "ok", "note": "\\udc00"}');
    const run = await runToolhost(["preview", "lone.json"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^toolhost: lone\.json: lone_surrogate at \/note: .+\n$/);
  });

  it("refuses a --type multimodal result without a content array as invalid_result", async () => {
    const run = await runToolhost(["preview", "--type", "multimodal", "small.json"], { cwd });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^toolhost: small\.json: invalid_result at \/content: .+\n$/);
  });

  it("reports a missing file with its errno code and exit 1", async () => {
    const run = await runToolhost(["preview", "missing.json"], { cwd });
    expect(run).toEqual({
      status: 1,
      stdout: "",
      stderr: "toolhost: missing.json: ENOENT: no such file or directory\n",
    });
  });

  it.each(["1024", "32768"])("accepts the budget bound %s", async (budget) => {
    const run = await runToolhost(["preview", "--budget", budget, "small.json"], { cwd });
    expect(run.status).toBe(0);
    expect(parsePreview(run.stdout).max_result_context_bytes).toBe(Number(budget));
  });

  it.each(["1023", "32769", "0", "-2048", "abc", "2048.5", "1e4", ""])(
    "refuses --budget %j as a usage error (exit 2)",
    async (budget) => {
      const run = await runToolhost(["preview", "--budget", budget, "small.json"], { cwd });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("--budget");
      expect(run.stderr).toContain("must be an integer from 1024 to 32768");
    },
  );

  it("refuses an unknown --type as a usage error, listing the result types", async () => {
    const run = await runToolhost(["preview", "--type", "xml", "small.json"], { cwd });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("'xml' is invalid");
    expect(run.stderr).toContain(Object.keys(RESULT_TYPES).join(", "));
  });

  it("refuses more than one file as a usage error", async () => {
    const run = await runToolhost(["preview", "small.json", "large.json"], { cwd });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("too many arguments");
  });
});
