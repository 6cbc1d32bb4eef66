/** The http suite's results as Markdown: throughput and latency per case, and ratios to the hello-world. */

import { machineLines } from "../lib/machine.mjs";
import { fixed, markdownTable, sizeLabel } from "../lib/markdown.mjs";
import { median, quantile } from "../lib/timing.mjs";

/** A ratio with three significant digits (`0.113`, `0.00045`, `2510`). */
function ratio(value) {
  return Number.isFinite(value) ? String(Number(value.toPrecision(3))) : "–";
}

/**
 * Renders the suite's RESULTS.md section and console summary; the first case is the hello-world baseline.
 * @returns {{ markdown: string, summary: string }}
 */
export function renderReport({ cases, totals, plan, machine, quick, dryRunBytes, resultBytes, budget, failures }) {
  const stats = totals.map((total) => ({
    requests: total.latenciesMs.length,
    rps: total.latenciesMs.length / (total.elapsedMs / 1000),
    p50: median(total.latenciesMs),
    p99: quantile(total.latenciesMs, 0.99),
    responseBytes: total.responseBytes,
    errors: total.errors,
    spread: `${fixed(Math.min(...total.roundRps))}–${fixed(Math.max(...total.roundRps))}`,
  }));
  const base = stats[0];
  const table = markdownTable(
    [
      "case",
      "requests",
      "req/s",
      "req/s per round",
      "p50 ms",
      "p99 ms",
      "req/s ÷ hello",
      "p50 ÷ hello",
      "answer bytes",
      "errors",
    ],
    cases.map((loadCase, i) => {
      const s = stats[i];
      return [
        loadCase.name,
        s.requests,
        fixed(s.rps),
        s.spread,
        fixed(s.p50, 2),
        fixed(s.p99, 2),
        i === 0 ? "1" : `${ratio(s.rps / base.rps)}×`,
        i === 0 ? "1" : `${ratio(s.p50 / base.p50)}×`,
        s.responseBytes,
        s.errors,
      ];
    }),
  );
  const setup = [
    `Servers: \`toolhost serve\` (the real CLI, SQLite file in a temp directory, \`TOOLHOST_LOG_LEVEL=warn\`) and a Fastify hello-world (\`bench/http/hello-server.mjs\`, no logging), each in its own child process on 127.0.0.1.`,
    `Load: from the bench process (node:http, keep-alive), ${plan.concurrency} concurrent connections, each sending its next request when the previous answer has been read; per case and round ${plan.warmupMs} ms warm-up then ${plan.measureMs} ms measured; ${plan.rounds} round(s), the case order reversed every other round. Client, servers and other processes share the same ${machine.cores} cores.`,
    `Dry-run body: ${dryRunBytes} bytes — a ${sizeLabel(resultBytes)} generated result (\`bench/projection/generate.mjs\`) as a \`completed\` mock receipt, projected to the tool's ${budget}-byte budget; its preview was checked once against \`projectResult\` of the same text.`,
    "Other processes on the machine make single rounds vary a lot (see req/s per round): compare the ratios of one run, not absolute numbers.",
    "Latency is per request, from sending to the last byte of the answer; with fewer than 100 requests in a case its p99 is about its maximum.",
  ].map((line) => `- ${line}`);
  const markdown = [
    "## http: the server over real HTTP, against a Fastify hello-world",
    "",
    ...machineLines(machine),
    `- run: ${quick ? "quick (rough numbers)" : "full"}`,
    "",
    ...setup,
    "",
    table,
    "",
    failures.length === 0
      ? "- Correctness: every answer had the expected status; the dry-run preview matched."
      : `- **Failures**: ${failures.join("; ")}`,
  ].join("\n");
  const summary = cases
    .map(
      (loadCase, i) =>
        `${loadCase.name}: ${fixed(stats[i].rps)} req/s, p50 ${fixed(stats[i].p50, 2)} ms, p99 ${fixed(stats[i].p99, 2)} ms${i === 0 ? "" : ` (${ratio(stats[i].rps / base.rps)}× hello req/s)`}`,
    )
    .join("\n");
  return { markdown, summary };
}
