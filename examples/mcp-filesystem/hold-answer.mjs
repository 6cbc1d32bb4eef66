/**
 * A stdio MCP proxy that makes "the bridge died in the middle of a write" reproducible: it starts the
 * MCP server named after `--`, forwards every message both ways, and when the answer to a call of the
 * `--hold` tool comes back, it keeps it (logs `{"held": id}`) instead of forwarding it. The MCP server
 * has done the write; the bridge never learns it — kill the bridge then, and its restart must
 * reconcile the call rather than write again. With `--log FILE` it appends every `tools/call` it
 * forwards (name, arguments, `_meta`) to FILE as a JSON line, so you can count the writes.
 *
 *   node hold-answer.mjs [--hold write_file] [--log calls.jsonl] -- node_modules/.bin/mcp-server-filesystem DIR
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const argv = process.argv.slice(2);
const separator = argv.indexOf("--");
const flags = separator < 0 ? [] : argv.slice(0, separator);
const [command, ...args] = separator < 0 ? [] : argv.slice(separator + 1);
const flag = (name) => {
  const at = flags.indexOf(name);
  return at < 0 ? undefined : flags[at + 1];
};
if (command === undefined) {
  process.stderr.write("usage: hold-answer.mjs [--hold TOOL] [--log FILE] -- command args…\n");
  process.exit(2);
}
const holdTool = flag("--hold");
const log = flag("--log");
const record = (value) => {
  if (log !== undefined) appendFileSync(log, `${JSON.stringify(value)}\n`);
};

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const held = new Set();

createInterface({ input: process.stdin }).on("line", (line) => {
  try {
    const message = JSON.parse(line);
    if (message.method === "tools/call") {
      const { name, arguments: callArguments, _meta } = message.params;
      record({ call: name, arguments: callArguments, _meta });
      if (name === holdTool) held.add(message.id);
    }
  } catch {
    // not JSON: forwarded as it is
  }
  child.stdin.write(`${line}\n`);
});
process.stdin.on("end", () => child.kill("SIGTERM"));

createInterface({ input: child.stdout }).on("line", (line) => {
  try {
    const message = JSON.parse(line);
    if (message.method === undefined && held.has(message.id)) {
      record({ held: message.id });
      process.stderr.write(`hold-answer: ${holdTool} is done; its answer is held back (kill the bridge now)\n`);
      return;
    }
  } catch {
    // not JSON: forwarded as it is
  }
  process.stdout.write(`${line}\n`);
});
child.on("exit", (code) => process.exit(code ?? 1));
