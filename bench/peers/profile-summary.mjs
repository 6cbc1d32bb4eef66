/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by where the code lives (a package of
 * node_modules, an area of the toolhost server, Node's internals, GC) and the hottest functions.
 */

import { readFileSync } from "node:fs";

/** Where a frame's code lives, as a short label. */
function areaOf(frame) {
  const { url, functionName } = frame;
  // The counter's wrapper is the JS frame around better-sqlite3's native execution, which V8 bills to it.
  if (url?.endsWith("statement-counter.mjs")) return "better-sqlite3 statement execution (native)";
  if (url === "" || url === undefined) {
    if (functionName.startsWith("(")) return functionName;
    return "native / V8 builtins";
  }
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const ours = /packages\/([^/]+)\/dist\/(?:([^/]+)\/)?/.exec(url);
  if (ours)
    return ours[2] === undefined || ours[2].endsWith(".js") ? `toolhost ${ours[1]}` : `toolhost ${ours[1]}/${ours[2]}`;
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  return url.split("/").slice(-2).join("/");
}

/**
 * Reads `file` and answers the top areas and functions by self time (percent of non-idle samples),
 * counting only samples taken within `window` (µs of the monotonic clock, as `process.hrtime` and V8's
 * profile timestamps both read it on Linux) when given, so start-up (module loading, schema
 * compilation) and shutdown stay out; `windowSamples` says how many samples that kept.
 * @returns {{ byArea: Array<{ area: string, percent: number }>, byFunction: Array<{ name: string, where: string, percent: number }>, windowSamples: number, allSamples: number }}
 */
export function summariseProfile(file, window = undefined, top = 12) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  let windowSamples = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += deltas[i] ?? 0;
    if (window !== undefined && (at < window.fromUs || at > window.toUs)) continue;
    windowSamples++;
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  }
  const areas = new Map();
  const functions = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (node === undefined || node.callFrame.functionName === "(idle)") continue;
    total += us;
    const area = areaOf(node.callFrame);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const name = node.callFrame.functionName || "(anonymous)";
    const key = `${name}\u0000${area}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const percent = (us) => (total > 0 ? (100 * us) / total : 0);
  return {
    windowSamples,
    allSamples: profile.samples.length,
    byArea: [...areas]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, us]) => ({ area, percent: percent(us) })),
    byFunction: [...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => {
        const [name, where] = key.split("\u0000");
        return { name, where, percent: percent(us) };
      }),
  };
}
