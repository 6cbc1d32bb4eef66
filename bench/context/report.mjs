/** The context suite's results as Markdown: estimate error, overflows and prefix stability per scenario. */

import { machineLines } from "../lib/machine.mjs";
import { fixed, markdownTable } from "../lib/markdown.mjs";
import { median, quantile } from "../lib/timing.mjs";
import { WARMUP_TURNS } from "./index.mjs";

/** The targets. */
export const TARGETS = { overflows: 0, prefixShare: 0.99 };

function commonPrefixBytes(a, b) {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x[i] === y[i]) i++;
  return i;
}

/** What a provider's prompt cache sees of a request, in order: the tools, then each message. */
function promptText(body) {
  return [JSON.stringify(body.tools ?? []), ...body.messages.map((m) => JSON.stringify(m))].join("\n");
}

const percent = (value) => (Number.isFinite(value) ? `${fixed(value * 100, 2)}%` : "–");

/** What one scenario measured. */
export function summarise(result) {
  const turnRecords = result.records.filter((r) => r.purpose === "turn" && r.actual_input_tokens !== null);
  const errors = turnRecords.map(
    (r) => Math.abs(r.estimated_input_tokens - r.actual_input_tokens) / r.actual_input_tokens,
  );
  const after = turnRecords
    .filter((r) => r.turn >= WARMUP_TURNS)
    .map((r) => Math.abs(r.estimated_input_tokens - r.actual_input_tokens) / r.actual_input_tokens);
  // Consecutive turn requests with no compaction between them, as the provider received them.
  const kept = [];
  const share = [];
  const bodies = result.received.filter((r) => !r.refused);
  for (let i = 1; i < bodies.length; i++) {
    const previous = bodies[i - 1];
    const current = bodies[i];
    if (previous.body.tool_choice === "none" || current.body.tool_choice === "none") continue;
    const previousMessages = previous.body.messages.length;
    const compacted = !current.body.messages
      .slice(0, previousMessages - 1)
      .every((m, k) => JSON.stringify(m) === JSON.stringify(previous.body.messages[k]));
    if (compacted) continue;
    const before = promptText(previous.body);
    const now = promptText(current.body);
    const prefix = commonPrefixBytes(before, now);
    kept.push(prefix / Buffer.byteLength(before));
    share.push(prefix / Buffer.byteLength(now));
  }
  return {
    label: result.label,
    turns: result.turns,
    requests: result.records.length,
    summaries: result.records.filter((r) => r.purpose === "summary").length,
    overflows: result.received.filter((r) => r.refused).length,
    maxInput: Math.max(...result.received.map((r) => r.inputTokens)),
    errorMedian: median(errors),
    errorP95: quantile(errors, 0.95),
    afterMedian: median(after),
    afterP95: quantile(after, 0.95),
    keptMin: Math.min(...kept),
    keptMedian: median(kept),
    shareMedian: median(share),
    pairs: kept.length,
    elapsedMs: result.elapsedMs,
  };
}

/** The Markdown section and the failures (none: targets are reported, not asserted). */
export function renderReport({ results, machine, window, maxOutput, budgetBytes, quick, log }) {
  const rows = results.map(summarise);
  for (const row of rows) {
    log(
      `${row.label}: ${row.requests} requests (${row.summaries} summaries), error median ${percent(row.afterMedian)} p95 ${percent(row.afterP95)} after ${WARMUP_TURNS} turns, ${row.overflows} overflows, prefix kept min ${percent(row.keptMin)}`,
    );
  }
  const markdown = [
    "## context",
    "",
    ...machineLines(machine),
    "",
    `An \`openai\` agent version (official SDK) reads ${rows[0]?.turns ?? 0} pages of tasks, one tool call per turn, against a local Chat Completions server that counts input tokens with gpt-tokenizer (o200k_base) and refuses a request over its window. Window ${window} tokens (\`max_context_tokens\`), \`max_output_tokens\` ${maxOutput}, each result about ${budgetBytes - 200} bytes under a ${budgetBytes}-byte budget, Chinese-heavy or English-heavy. ${quick ? "**Quick run.**" : ""}`,
    "",
    markdownTable(
      [
        "scenario",
        "turn requests",
        "summaries (compactions)",
        `estimate error median / p95 (after ${WARMUP_TURNS} turns)`,
        "error median / p95 (all)",
        "overflowed (target 0)",
        "largest request (tokens)",
        "prefix kept, min / median (target ≥ 99%)",
        "new request that is the old prefix, median",
      ],
      rows.map((r) => [
        r.label,
        r.requests - r.summaries,
        r.summaries,
        `${percent(r.afterMedian)} / ${percent(r.afterP95)}`,
        `${percent(r.errorMedian)} / ${percent(r.errorP95)}`,
        r.overflows,
        r.maxInput,
        `${percent(r.keptMin)} / ${percent(r.keptMedian)}`,
        percent(r.shareMedian),
      ]),
    ),
    "",
    "Error: |estimated − tokenizer count| / tokenizer count of each turn request (`GET /v1/runs/{run_id}/model-requests`). " +
      "Prefix kept: for two consecutive requests with no compaction between them, the bytes of the earlier request's prompt (its tools, then each message, as the provider received them) that the later one starts with, over the earlier one's bytes. " +
      "The last column is the same prefix over the later request's bytes: about what a provider's prompt cache can reuse.",
    "",
    `Targets: overflowed ${rows.every((r) => r.overflows === 0) ? "met" : "**NOT met**"} (${rows.map((r) => r.overflows).join(", ")}); prefix kept ≥ 99% ${rows.every((r) => r.keptMin >= 0.99) ? "met" : "**NOT met**"} (min ${rows.map((r) => percent(r.keptMin)).join(", ")}).`,
  ].join("\n");
  return { markdown, failures: [] };
}
