/**
 * The MCP walk-through's configuration (docs/mcp.md), through the HTTP API with an admin key.
 *
 *   node examples/mcp-filesystem/setup.mjs
 *     creates the `files` binding (reused when it exists) and an executor key; prints them.
 *   node examples/mcp-filesystem/setup.mjs --run TOOLSET_ID [--dir DIR]
 *     creates an agent version on that toolset whose scripted model lists DIR, writes DIR/note.txt,
 *     then reads it back; starts a run and follows it until it ends, one line per change.
 *
 * Environment: TOOLHOST_URL (default http://127.0.0.1:8080), TOOLHOST_ADMIN_KEY (required).
 * The calls go through `@toolhost/client`, the typed client.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolhostClient } from "@toolhost/client";

const baseUrl = process.env.TOOLHOST_URL ?? "http://127.0.0.1:8080";
const adminKey = process.env.TOOLHOST_ADMIN_KEY;
if (!adminKey) {
  console.error("set TOOLHOST_ADMIN_KEY (e.g. the server's TOOLHOST_BOOTSTRAP_KEY)");
  process.exit(2);
}
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : process.argv[at + 1];
};

const toolhost = createToolhostClient({ baseUrl, apiKey: adminKey });

// Any failure ends the script with one line, not a stack: the server unreachable, or a refusal.
process.on("uncaughtException", (error) => {
  const unreachable = error instanceof TypeError && error.message === "fetch failed";
  const cause = unreachable && error.cause instanceof Error ? ` (${error.cause.code ?? error.cause.message})` : "";
  console.error(
    unreachable
      ? `cannot reach the toolhost server at ${baseUrl}${cause}: start it (npx toolhost serve) or set TOOLHOST_URL to its address`
      : `setup failed: ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
});

/** The data of a client request; undefined on a 409 when `allowConflict`; else throws `METHOD PATH: STATUS BODY`. */
async function answerOf(method, request, { allowConflict = false } = {}) {
  const { data, error, response } = await request;
  if (allowConflict && response.status === 409) return undefined;
  if (!response.ok) {
    const path = response.url.slice(baseUrl.replace(/\/+$/, "").length);
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(error)}`);
  }
  return data;
}
/** The path parameters of run `runId`. */
const runPath = (runId) => ({ params: { path: { run_id: runId } } });

const toolsetId = option("--run");
if (toolsetId === undefined) {
  await answerOf(
    "POST",
    toolhost.POST("/v1/executor-bindings", { body: { binding_id: "files", name: "scratch files" } }),
    { allowConflict: true },
  );
  const key = await answerOf(
    "POST",
    toolhost.POST("/v1/keys", { body: { name: "mcp bridge", scopes: ["executors:connect", "tools:execute"] } }),
  );
  console.log("BINDING_ID=files");
  console.log(`TOOLHOST_API_KEY=${key.key}`);
  process.exit(0);
}

const dir = option("--dir", join(tmpdir(), "toolhost-scratch"));
const note = join(dir, "note.txt");
const agent = await answerOf("POST", toolhost.POST("/v1/agents", { body: { name: "files agent" } }));
const toolset = await answerOf(
  "GET",
  toolhost.GET("/v1/toolsets/{toolset_id}", { params: { path: { toolset_id: toolsetId } } }),
);
const version = await answerOf(
  "POST",
  toolhost.POST("/v1/agents/{agent_id}/versions", {
    params: { path: { agent_id: agent.agent_id } },
    body: {
      toolset_id: toolsetId,
      toolset_version: toolset.latest_version,
      model: {
        provider: "scripted",
        script: [
          { tool_calls: [{ name: "fs.list_directory", arguments: { path: dir } }] },
          {
            tool_calls: [
              {
                name: "fs.write_file",
                arguments: { path: note, content: `written through the MCP bridge at ${new Date().toISOString()}\n` },
              },
            ],
          },
          { tool_calls: [{ name: "fs.read_text_file", arguments: { path: note } }] },
          { message: "Listed the directory, wrote note.txt and read it back." },
        ],
      },
    },
  }),
);
const session = await answerOf(
  "POST",
  toolhost.POST("/v1/sessions", { body: { agent_version: version.agent_version, subject: "user-1" } }),
);
let run = await answerOf(
  "POST",
  toolhost.POST("/v1/sessions/{session_id}/runs", {
    params: { path: { session_id: session.session_id } },
    body: { input: "Write a note in my scratch directory" },
  }),
);
console.log(`run ${run.run_id} started`);

// Follow the run's event stream (no polling): each call's status as it changes, until the run ends.
const seen = new Map();
for await (const event of toolhost.runEvents(run.run_id, { signal: AbortSignal.timeout(10 * 60_000) })) {
  if (event.event === "run.status") run = event.data;
  if (event.event === "tool_call.status" && seen.get(event.data.call_id) !== event.data.status) {
    seen.set(event.data.call_id, event.data.status);
    console.log(`  ${event.data.tool_name}: ${event.data.status}`);
  }
}
console.log(`run ${run.run_id}: ${run.status}`);
// A call in reconciliation_required may settle after the run ended (its resolver decides): follow it a while.
const settleBy = Date.now() + 30_000;
let calls = (await answerOf("GET", toolhost.GET("/v1/runs/{run_id}/tool-calls", runPath(run.run_id)))).data;
while (calls.some((c) => c.status === "reconciliation_required") && Date.now() < settleBy) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  calls = (await answerOf("GET", toolhost.GET("/v1/runs/{run_id}/tool-calls", runPath(run.run_id)))).data;
}
for (const c of calls) console.log(`  ${c.tool_name}: ${c.status}`);
const history = await answerOf(
  "GET",
  toolhost.GET("/v1/runs/{run_id}/history", { params: { path: { run_id: run.run_id }, query: { limit: 100 } } }),
);
for (const item of history.data) {
  if (item.type === "tool_result")
    console.log(`  result: ${JSON.stringify(item.context_preview.result).slice(0, 160)}`);
  if (item.type === "message") console.log(`  model: ${item.text}`);
}
