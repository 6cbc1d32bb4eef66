/**
 * The floor of toolhost's own stack, for bench/floor: a bare Fastify server (no logging, no schemas,
 * no validation beyond what the answers need) answering the requests of bench/protocol's cycle —
 * create run, pending long-poll, claim, `accepted`, `progress`, `completed` — and the executor's
 * connect, heartbeat and disconnect, with answers of the same shape and about the same size as
 * toolhost's, so bench/protocol's simulated executors drive it unchanged. Its state is in memory,
 * found by key (API key → scopes, call id → call; a completed call is forgotten).
 *
 *   node floor-server.mjs lookup                  nothing else
 *   node floor-server.mjs sqlite FILE             and one SQLite write per request (WAL, synchronous=FULL:
 *                                                 every commit fsyncs the WAL before the answer)
 *   node floor-server.mjs postgres URL SCHEMA     and one PostgreSQL INSERT/UPDATE per request (one round
 *                                                 trip, a named prepared statement, committed before the answer)
 *
 * The write of each request is the row it changes: create run inserts the call, pending records the
 * poll on the connection, claim and the receipts update the call; connect, heartbeat and disconnect
 * write the connection. The API keys come from TOOLHOST_FLOOR_PRODUCER_KEY and
 * TOOLHOST_FLOOR_EXECUTOR_KEY. Prints its URL on standard output; stops on SIGTERM or SIGINT.
 */

import { randomBytes } from "node:crypto";
import Fastify from "fastify";

const [store, database, schema] = process.argv.slice(2);

/** The one write each request makes, by store; each resolves once it is durable. */
const writes = await openWrites(store, database, schema);

/** API key → scopes: the key lookup. */
const keys = new Map([
  [process.env.TOOLHOST_FLOOR_PRODUCER_KEY, new Set(["runtime:write", "runtime:read"])],
  [process.env.TOOLHOST_FLOOR_EXECUTOR_KEY, new Set(["executors:connect", "tools:execute"])],
]);
/** call id → the call (until it completes). */
const calls = new Map();
/** The ids of the last calls completed (bounded): a claim from a stale page is refused as toolhost does. */
const completed = new Set();
const COMPLETED_KEPT = 4096;
/** Calls not yet claimed, oldest first. */
const pending = new Map();
/** Long-polls waiting for a call: each new call wakes the oldest. */
const waiters = [];

const BINDING_ID = "bnd_01m8floorfloorfloorfloorfl";
const SESSION = {
  session_id: "ses_01m8floorfloorfloorfloorfl",
  agent_id: "agt_01m8floorfloorfloorfloorfl",
  agent_version: "agv_01m8floorfloorfloorfloorfl",
  toolset_id: "tls_01m8floorfloorfloorfloorfl",
};
const ARGUMENTS = { title: "Call the plumber", due: "2026-03-02" };
const ARGUMENTS_DIGEST = "sha256:76f13395f2d436e430eda748d6f9797fb9dba1fad58f66d345802c0b692d19f3";
let sequence = 0;
/** An id of the length of toolhost's (`run_` + 26 characters). */
const newId = (prefix) => `${prefix}_01m8${(++sequence).toString(36).padStart(22, "0")}`;

/** Answers 401/403 unless the request's key has `scope`. */
function allowed(request, reply, scope) {
  const header = request.headers.authorization;
  const scopes = header?.startsWith("Bearer ") ? keys.get(header.slice(7)) : undefined;
  if (scopes === undefined) reply.code(401).send({ error: { code: "unauthenticated", message: "unknown key" } });
  else if (!scopes.has(scope)) reply.code(403).send({ error: { code: "forbidden", message: `needs ${scope}` } });
  else return true;
  return false;
}

const conflict = (reply, code, message) => reply.code(409).send({ error: { code, message } });

/** Up to `limit` unclaimed calls, as a pending page lists them. */
function page(limit) {
  const data = [];
  for (const call of pending.values()) {
    if (data.length >= limit) break;
    data.push({
      run_id: call.run_id,
      call_id: call.call_id,
      tool_name: call.tool_name,
      binding_id: BINDING_ID,
      created_at: call.created_at,
    });
  }
  return { data, cancellations: [], next_cursor: null };
}

const app = Fastify({ logger: false });

app.post("/v1/sessions/:sessionId/runs", async (request, reply) => {
  if (!allowed(request, reply, "runtime:write")) return reply;
  const now = new Date().toISOString();
  const runId = newId("run");
  const call = {
    run_id: runId,
    call_id: newId("call"),
    tool_name: "tasks.write",
    created_at: now,
    status: "pending",
    claim_id: undefined,
    grant: undefined,
  };
  await writes.createCall(call.call_id, runId, JSON.stringify(ARGUMENTS));
  calls.set(call.call_id, call);
  pending.set(call.call_id, call);
  waiters.shift()?.();
  return reply.code(201).send({
    run_id: runId,
    session_id: request.params.sessionId,
    agent_id: SESSION.agent_id,
    agent_version: SESSION.agent_version,
    status: "waiting_for_tools",
    created_at: now,
    updated_at: now,
  });
});

app.post("/v1/executors/connect", async (request, reply) => {
  if (!allowed(request, reply, "executors:connect")) return reply;
  const connectionId = newId("conn");
  await writes.connect(connectionId, request.body.executor_id);
  return {
    executor_id: request.body.executor_id,
    connection_id: connectionId,
    epoch: 1,
    heartbeat_interval_ms: 5000,
    lease_ttl_ms: 15000,
    binding_ids: request.body.binding_ids,
    batch: { claim_max: 32, receipts_max: 100 },
  };
});

app.get("/v1/executors/:executorId/pending", async (request, reply) => {
  if (!allowed(request, reply, "executors:connect")) return reply;
  const limit = Math.min(Number(request.query.limit ?? 50), 200);
  const waitMs = Math.min(Number(request.query.wait_ms ?? 0), 30_000);
  if (pending.size === 0 && waitMs > 0) {
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = waiters.indexOf(wake);
        if (at !== -1) waiters.splice(at, 1);
        resolve();
      }, waitMs);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      waiters.push(wake);
    });
  }
  await writes.poll(request.query.connection_id);
  return page(limit);
});

app.post("/v1/runs/:runId/tool-calls/:callId/claim", async (request, reply) => {
  if (!allowed(request, reply, "tools:execute")) return reply;
  const call = calls.get(request.params.callId);
  if (call === undefined && completed.has(request.params.callId)) {
    return conflict(reply, "run_terminated", "the run is completed");
  }
  if (call === undefined || call.run_id !== request.params.runId) {
    return reply.code(404).send({ error: { code: "not_found", message: "no such call" } });
  }
  if (call.status !== "pending") return conflict(reply, "already_claimed", "the call is claimed");
  call.status = "claimed";
  call.claim_id = newId("clm");
  call.grant = randomBytes(32).toString("base64url");
  pending.delete(call.call_id);
  await writes.claim(call.call_id, call.claim_id, request.body.executor_id);
  const now = Date.now();
  return {
    claim_id: call.claim_id,
    grant: call.grant,
    replayed: false,
    call: {
      run_id: call.run_id,
      call_id: call.call_id,
      tool_name: call.tool_name,
      binding_id: BINDING_ID,
      effect: "write",
      arguments: ARGUMENTS,
      arguments_digest: ARGUMENTS_DIGEST,
      subject: "bench-user",
      agent_id: SESSION.agent_id,
      agent_version: SESSION.agent_version,
      toolset_id: SESSION.toolset_id,
      toolset_version: 1,
      deadline: new Date(now + 600_000).toISOString(),
      accept_deadline: new Date(now + 30_000).toISOString(),
    },
  };
});

/** What each receipt kind does to the call: its new status, and the run's status in the answer. */
const RECEIPTS = {
  accepted: { from: "claimed", to: "accepted", runStatus: "waiting_for_tools" },
  progress: { from: "accepted", to: "accepted", runStatus: "waiting_for_tools" },
  completed: { from: "accepted", to: "completed", runStatus: "completed" },
};

app.post("/v1/runs/:runId/tool-calls/:callId/receipts", async (request, reply) => {
  if (!allowed(request, reply, "tools:execute")) return reply;
  const receipt = request.body;
  const call = calls.get(request.params.callId);
  const rule = RECEIPTS[receipt.kind];
  if (call === undefined || rule === undefined || call.claim_id !== receipt.claim_id || call.grant !== receipt.grant) {
    return conflict(reply, "conflict", "not this call's claim");
  }
  if (call.status !== rule.from) return conflict(reply, "conflict", `the call is ${call.status}`);
  call.status = rule.to;
  if (receipt.kind === "completed") {
    await writes.complete(call.call_id, JSON.stringify(receipt.result));
    calls.delete(call.call_id);
    completed.add(call.call_id);
    if (completed.size > COMPLETED_KEPT) completed.delete(completed.values().next().value);
  } else if (receipt.kind === "progress") await writes.progress(call.call_id, JSON.stringify(receipt.progress));
  else await writes.accept(call.call_id);
  const answer = { receipt_id: receipt.receipt_id, kind: receipt.kind, replayed: false };
  if (receipt.kind === "accepted") answer.confirmed = true;
  return { ...answer, applied: true, call_status: rule.to, run_status: rule.runStatus };
});

app.post("/v1/executors/:executorId/heartbeat", async (request, reply) => {
  if (!allowed(request, reply, "executors:connect")) return reply;
  await writes.heartbeat(request.body.connection_id);
  return {
    executor_id: request.params.executorId,
    connection_id: request.body.connection_id,
    lease_expires_at: new Date(Date.now() + 15_000).toISOString(),
    heartbeat_interval_ms: 5000,
    cancellations: [],
  };
});

app.post("/v1/executors/:executorId/disconnect", async (request, reply) => {
  if (!allowed(request, reply, "executors:connect")) return reply;
  await writes.disconnect(request.body.connection_id);
  return { executor_id: request.params.executorId, online: false, released: [] };
});

await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`http://127.0.0.1:${app.server.address().port}\n`);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    app
      .close()
      .then(() => writes.close())
      .then(() => process.exit(0));
  });
}

/**
 * The writes of `store`: each a function of the request's values resolving once the write is
 * durable (for `lookup`, at once).
 */
async function openWrites(kind, location, schemaName) {
  const nothing = async () => undefined;
  if (kind === "lookup") {
    return {
      createCall: nothing,
      connect: nothing,
      poll: nothing,
      claim: nothing,
      accept: nothing,
      progress: nothing,
      complete: nothing,
      heartbeat: nothing,
      disconnect: nothing,
      close: nothing,
    };
  }
  const ddl = (prefix) => [
    `create table ${prefix}calls (call_id text primary key, run_id text not null, status text not null, arguments text not null, claim_id text, executor_id text, progress text, result text, updated_at bigint not null)`,
    `create table ${prefix}connections (connection_id text primary key, executor_id text not null, polled_at bigint, lease_until bigint)`,
  ];
  const sql = {
    createCall:
      "insert into %calls (call_id, run_id, status, arguments, updated_at) values ($1, $2, 'pending', $3, $4)",
    connect: "insert into %connections (connection_id, executor_id, lease_until) values ($1, $2, $3)",
    poll: "update %connections set polled_at = $2 where connection_id = $1",
    claim: "update %calls set status = 'claimed', claim_id = $2, executor_id = $3, updated_at = $4 where call_id = $1",
    accept: "update %calls set status = 'accepted', updated_at = $2 where call_id = $1",
    progress: "update %calls set progress = $2, updated_at = $3 where call_id = $1",
    complete: "update %calls set status = 'completed', result = $2, updated_at = $3 where call_id = $1",
    heartbeat: "update %connections set lease_until = $2 where connection_id = $1",
    disconnect: "delete from %connections where connection_id = $1",
  };
  /** Each write's values, the statement's last parameter being the time where it has one. */
  const values = {
    createCall: (callId, runId, args) => [callId, runId, args, Date.now()],
    connect: (connectionId, executorId) => [connectionId, executorId, Date.now() + 15_000],
    poll: (connectionId) => [connectionId, Date.now()],
    claim: (callId, claimId, executorId) => [callId, claimId, executorId, Date.now()],
    accept: (callId) => [callId, Date.now()],
    progress: (callId, progress) => [callId, progress, Date.now()],
    complete: (callId, result) => [callId, result, Date.now()],
    heartbeat: (connectionId) => [connectionId, Date.now() + 15_000],
    disconnect: (connectionId) => [connectionId],
  };
  if (kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(location);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    for (const statement of ddl("")) db.exec(statement);
    const writes = { close: async () => db.close() };
    for (const [name, text] of Object.entries(sql)) {
      // better-sqlite3 binds `$N` by name (`@pN`); each statement is one autocommitted write.
      const statement = db.prepare(text.replace("%", "").replace(/\$(\d+)/g, "@p$1"));
      const named = (list) => Object.fromEntries(list.map((value, i) => [`p${i + 1}`, value]));
      writes[name] = async (...args) => void statement.run(named(values[name](...args)));
    }
    return writes;
  }
  if (kind === "postgres") {
    const { default: pg } = await import("pg");
    const prefix = `"${schemaName}".`;
    const pool = new pg.Pool({ connectionString: location, max: 10 });
    await pool.query(`create schema if not exists "${schemaName}"`);
    for (const statement of ddl(prefix)) await pool.query(statement);
    const writes = { close: () => pool.end() };
    for (const [name, text] of Object.entries(sql)) {
      const query = { name: `floor_${name}`, text: text.replace("%", prefix) };
      writes[name] = async (...args) => void (await pool.query({ ...query, values: values[name](...args) }));
    }
    return writes;
  }
  throw new Error(`unknown store ${kind} (lookup, sqlite FILE or postgres URL SCHEMA)`);
}
