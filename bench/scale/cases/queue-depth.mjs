/**
 * Pending poll cost by queue depth: `GET /v1/executors/{id}/pending` (no wait, a page of 50) p50/p99
 * with 0 / 50 / 1k / 10k / 50k queued calls on the executor's binding, both dialects. The queue is
 * made by copying one call the API created (SQL, far faster than 50k run creations; the rows are the
 * same). Target: p50 at the deepest queue within 2× of the empty one (issue #19.1; the plans are
 * guarded by packages/server/test/storage/query-plans.test.ts). The empty queue answers an empty
 * page, 50 queued the same full page as 50k: the ratio to 50 is the queue's depth alone.
 */

import { PLANNER_STATISTICS_LOOK_MS } from "../../../packages/server/dist/runtime/planner-statistics-sweep.js";
import { markdownTable } from "../../lib/markdown.mjs";
import { HttpConnection } from "../../protocol/http-connection.mjs";
import { SimExecutor } from "../../protocol/sim-executor.mjs";
import { DIALECTS, quantile, startScaleServer } from "../scale-server.mjs";

/** How long PostgreSQL polls wait after the queue grew: one look of the planner-statistics sweep and a second. */
const STATISTICS_WAIT_MS = PLANNER_STATISTICS_LOOK_MS + 1_000;

/** Most a curve's largest case may cost, as a multiple of its smallest. */
const FLATNESS = 2;

/** Adds `count` copies of call `templateId` (IDs `q<from + i>`, each a millisecond older). */
async function copyCalls(server, templateId, from, count) {
  const [template] = await server.sql("select * from tool_calls where call_id = ?", [templateId]);
  const columns = Object.keys(template);
  const expression = (column) =>
    column === "call_id"
      ? `'q' || cast(cast(? as integer) + n.i as text)`
      : column === "created_at_ms"
        ? "t.created_at_ms - (cast(? as integer) + n.i)"
        : `t."${column}"`;
  const select = columns.map(expression).join(", ");
  const numbers =
    server.dialect === "sqlite"
      ? "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)"
      : "with n(i) as (select generate_series(1, cast(? as integer)))";
  const list = columns.map((column) => `"${column}"`).join(", ");
  const text =
    server.dialect === "sqlite"
      ? `${numbers} insert into tool_calls (${list}) select ${select} from tool_calls t, n where t.call_id = ?`
      : `insert into tool_calls (${list}) ${numbers} select ${select} from tool_calls t, n where t.call_id = ?`;
  await server.sql(text, [count, from, from, templateId]);
}

/** Times `samples` pending polls; answers their durations in ms. */
async function timePolls(executor, samples, expected) {
  const durations = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const data = await executor.pending(50, 0);
    durations.push(performance.now() - started);
    if (data.length !== expected) throw new Error(`pending answered ${data.length} candidates, expected ${expected}`);
  }
  return durations;
}

/** Runs the case on both dialects. */
export async function run({ quick, log }) {
  const depths = quick ? [0, 50, 1_000, 5_000] : [0, 50, 1_000, 10_000, 50_000];
  const samples = quick ? 30 : 300;
  const rows = [];
  const failures = [];
  const summary = [];
  for (const { dialect, label } of DIALECTS) {
    // The executor sends no heartbeat while the queue is copied (50k rows take a while on PostgreSQL).
    const server = await startScaleServer(dialect, log, { TOOLHOST_LEASE_TTL_MS: "600000" });
    if (server === undefined) continue;
    try {
      const executor = new SimExecutor(server.url, server.world.executorKey, "e-depth");
      await executor.connect(server.world.bindingId);
      const producer = new HttpConnection(server.url, server.world.producerKey);
      const p50s = [];
      let queued = 0;
      let template;
      for (const depth of depths) {
        if (depth > 0 && template === undefined) {
          const created = await producer.request(
            "POST",
            `/v1/sessions/${server.world.sessionId}/runs`,
            '{"input":{"ask":"queue"}}',
          );
          if (created.status !== 201) throw new Error(`create run answered ${created.status}: ${created.text}`);
          const [call] = await executor.pending(1, 0);
          template = call.call_id;
          queued = 1;
        }
        if (depth > queued) {
          await copyCalls(server, template, queued, depth - queued);
          // A queue this deep arrives through the API over minutes; the server's planner-statistics
          // upkeep (every 10 s, PostgreSQL: docs/storage.md#indexes-of-the-hot-queries) analyses the
          // table meanwhile. Inserted at once here, the polls wait for its next look first.
          if (dialect === "postgres") await new Promise((resolve) => setTimeout(resolve, STATISTICS_WAIT_MS));
        }
        queued = Math.max(queued, depth);
        await timePolls(executor, Math.min(10, samples), Math.min(depth, 50));
        const durations = await timePolls(executor, samples, Math.min(depth, 50));
        const p50 = quantile(durations, 0.5);
        p50s.push(p50);
        rows.push([label, depth.toLocaleString("en"), p50.toFixed(2), quantile(durations, 0.99).toFixed(2)]);
        log(
          `${label}: ${depth} queued: pending p50 ${p50.toFixed(2)} ms, p99 ${quantile(durations, 0.99).toFixed(2)} ms`,
        );
      }
      producer.close();
      executor.connection.close();
      const ratio = p50s[p50s.length - 1] / p50s[0];
      const fullPage = p50s[depths.indexOf(50)];
      summary.push(
        `- ${label}: p50 at ${depths[depths.length - 1].toLocaleString("en")} queued is ${ratio.toFixed(2)}× the empty queue's (target ≤ ${FLATNESS}×) and ${(p50s[p50s.length - 1] / fullPage).toFixed(2)}× that at 50 queued (the same full page: the depth alone)`,
      );
      if (ratio > FLATNESS) log(`${label}: MISSED the flatness target (${ratio.toFixed(2)}×)`);
    } finally {
      await server.stop();
    }
  }
  const markdown = [
    "### Pending poll by queue depth",
    "",
    "`GET …/pending` (no wait, page of 50) on one binding; ms. With 0 queued the answer is an empty page; from 50 on it holds 50 candidates, so the 50 → 50,000 part of the curve is the queue's depth alone.",
    "",
    markdownTable(["dialect", "queued calls", "p50 ms", "p99 ms"], rows),
    "",
    ...summary,
    "",
  ].join("\n");
  return { markdown, failures };
}
