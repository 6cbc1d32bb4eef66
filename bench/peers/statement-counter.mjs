/**
 * Counts the statements a process sends to its database, the same way for toolhost and its peers:
 * every `pg.Client.prototype.query` call (one round trip each: Pool.query, prepared statements and
 * LISTEN/NOTIFY all go through it), every better-sqlite3 statement execution (`run`, `get`, `all`,
 * `iterate`, `exec`, `pragma`) and, in the BullMQ peer, every Redis command ioredis sends
 * (`Redis#sendCommand`: a pipeline's commands one each, a Lua script's EVALSHA one). Imported by the
 * peers' load process, and preloaded into the toolhost server (`node --import`), which answers
 * `{ type: "statements" }` on its IPC channel with the counts.
 *
 * With TOOLHOST_BENCH_STATEMENT_TIMES=1 it also times every statement by its SQL text (better-sqlite3:
 * the synchronous execution, on the server's thread; pg: from the send to the answer, a round trip's
 * wall time) and answers `{ type: "statement-times", reset }` with them. bench/floor's timed pass uses
 * it; the measured cases never run with it, so the timing costs their figures nothing.
 */

import { createRequire } from "node:module";

const require = createRequire(new URL("../../packages/server/package.json", import.meta.url));

/**
 * Statements counted so far in this process; `postgresRoundTrips`: the pg queries sent while nothing
 * else of their client was on the way (a client in pipeline mode sends a query at once, and queries
 * sent together share one round trip; without it every query is one).
 */
export const statementCounts = { postgres: 0, postgresRoundTrips: 0, sqlite: 0, redis: 0 };

/** Whether a pg client has nothing sent and unanswered (its internals, pg 8.23). */
function pgIdle(client) {
  return (
    client._activeQuery == null &&
    (client._sentQueryQueue?.length ?? 0) === 0 &&
    (client._queryQueue?.length ?? 0) === 0
  );
}

const timing = process.env.TOOLHOST_BENCH_STATEMENT_TIMES === "1";
/** Per SQL text: executions and their summed time in microseconds (only while `timing`). */
const statementTimes = new Map();

function addTime(sqlText, startedNs) {
  const us = Number(process.hrtime.bigint() - startedNs) / 1_000;
  const entry = statementTimes.get(sqlText);
  if (entry === undefined) statementTimes.set(sqlText, { count: 1, us });
  else {
    entry.count++;
    entry.us += us;
  }
}

/** The text of a pg query's first argument (a string or a query config). */
function pgText(first) {
  return typeof first === "string" ? first : typeof first?.text === "string" ? first.text : String(first);
}

const pg = require("pg");
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  statementCounts.postgres++;
  if (!this.pipeline || pgIdle(this)) statementCounts.postgresRoundTrips++;
  if (!timing) return clientQuery.apply(this, args);
  const started = process.hrtime.bigint();
  const result = clientQuery.apply(this, args);
  // Kysely and the wake-up relay call query(text, values) without a callback: a promise.
  if (typeof result?.finally === "function") result.finally(() => addTime(pgText(args[0]), started)).catch(() => {});
  return result;
};

try {
  const Database = require("better-sqlite3");
  const probe = new Database(":memory:");
  const statementProto = Object.getPrototypeOf(probe.prepare("select 1"));
  probe.close();
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = statementProto[method];
    statementProto[method] = timing
      ? function timedStatement(...args) {
          statementCounts.sqlite++;
          const started = process.hrtime.bigint();
          try {
            return original.apply(this, args);
          } finally {
            addTime(this.source, started);
          }
        }
      : function countedStatement(...args) {
          statementCounts.sqlite++;
          return original.apply(this, args);
        };
  }
  for (const method of ["exec", "pragma"]) {
    const original = Database.prototype[method];
    Database.prototype[method] = function countedDatabaseCall(...args) {
      statementCounts.sqlite++;
      return original.apply(this, args);
    };
  }
} catch {
  // No better-sqlite3 here: only PostgreSQL is counted.
}

/**
 * Counts ioredis' commands too, from now on. Called by the BullMQ peer only, so no other process
 * (the toolhost server preloads this file) loads ioredis.
 */
export function countRedisCommands(Redis) {
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function countedCommand(...args) {
    statementCounts.redis++;
    return sendCommand.apply(this, args);
  };
}

// Preloaded into a server started with an IPC channel: answer the counts when asked.
if (typeof process.send === "function") {
  process.on("message", (message) => {
    if (message?.type === "statements") process.send({ type: "statements", counts: { ...statementCounts } });
    if (message?.type === "statement-times") {
      const times = [...statementTimes].map(([sql, { count, us }]) => ({ sql, count, us }));
      if (message.reset === true) statementTimes.clear();
      process.send({ type: "statement-times", times });
    }
  });
}
