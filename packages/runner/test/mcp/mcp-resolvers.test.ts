// The bridge's resolvers of unknown write outcomes: `fail` settles failed, saying the write may or may
// not have happened; a command gets the question on standard input and answers on standard output, a
// URL gets it POSTed; anything unreadable means "cannot tell yet" (null: asked again later).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { MCP_OUTCOME_UNKNOWN_CODE, mcpResolver } from "../../src/mcp/index.js";
import type { ToolCall } from "../../src/tool-call.js";

const CALL = {
  runId: "run_1",
  callId: "call_1",
  toolName: "fs.write_file",
  subject: "user-1",
  arguments: { path: "/tmp/x", content: "hi" },
} as unknown as ToolCall;

const QUESTION = {
  tool: "fs.write_file",
  mcp_tool: "write_file",
  operation_key: "run_1:call_1",
  run_id: "run_1",
  call_id: "call_1",
  subject: "user-1",
  arguments: { path: "/tmp/x", content: "hi" },
};

const seen: unknown[] = [];
let answer = { status: 200, body: "" };
const http = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString("utf8");
  });
  request.on("end", () => {
    seen.push(JSON.parse(body));
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(answer.body);
  });
});
const listening = new Promise<string>((resolve) =>
  http.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(http.address() as AddressInfo).port}/check`)),
);
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

describe("mcpResolver", () => {
  it("fail: settles failed with mcp_outcome_unknown", async () => {
    const outcome = await mcpResolver("fail", "write_file")(CALL, "run_1:call_1");
    expect(outcome).toMatchObject({ kind: "failed", error: { code: MCP_OUTCOME_UNKNOWN_CODE } });
  });

  it("a command gets the question on stdin; exit 0 with an outcome answers it, anything else is null", async () => {
    // Echoes the question back inside a completed outcome, so the test sees what it was given.
    const echo = `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.stringify({kind:"completed",result:JSON.parse(s)})))`;
    const outcome = await mcpResolver({ command: process.execPath, args: ["-e", echo] }, "write_file")(
      CALL,
      "run_1:call_1",
    );
    expect(outcome).toEqual({ kind: "completed", result: QUESTION });
    const failing = mcpResolver({ command: process.execPath, args: ["-e", "process.exit(3)"] }, "write_file");
    expect(await failing(CALL, "run_1:call_1")).toBeNull();
    const missing = mcpResolver({ command: "/nonexistent/resolver" }, "write_file");
    expect(await missing(CALL, "run_1:call_1")).toBeNull();
  });

  it("a URL gets the question POSTed; a 200 outcome answers it, another status is null", async () => {
    const url = await listening;
    answer = { status: 200, body: '{"kind":"failed","error":{"code":"not_applied","message":"no file"}}' };
    const resolve = mcpResolver({ url }, "write_file");
    expect(await resolve(CALL, "run_1:call_1")).toEqual({
      kind: "failed",
      error: { code: "not_applied", message: "no file" },
    });
    expect(seen.at(-1)).toEqual(QUESTION);
    answer = { status: 503, body: '{"kind":"completed","result":1}' };
    expect(await resolve(CALL, "run_1:call_1")).toBeNull();
  });
});
