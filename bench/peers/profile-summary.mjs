/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by where the code lives (a package of
 * node_modules, an area of the toolhost server, Node's internals, GC) and the hottest functions.
 */

import { readFileSync } from "node:fs";

/** Where a frame's code lives, as a short label. */
function areaOf(frame) {
  const { url, functionName } = frame;
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
 * Reads `file` and answers the top areas and functions by self time (percent of non-idle samples).
 * @returns {{ byArea: Array<{ area: string, percent: number }>, byFunction: Array<{ name: string, where: string, percent: number }> }}
 */
export function summariseProfile(file, top = 12) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < profile.samples.length; i++) {
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
