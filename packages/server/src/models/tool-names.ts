/**
 * Tool names as providers accept them (pure). OpenAI and Anthropic allow only letters, digits, `_`
 * and `-` (at most 64), while a toolhost tool may be named `tasks.read`. Each toolset's names map to
 * provider names one to one and back: a name that is already acceptable stays as it is; another has
 * every other character replaced by `_`, and when that collides or is too long, a short digest of the
 * original name is appended. The mapping depends only on the toolset, so every request of a run
 * renders the same names.
 */

import { createHash } from "node:crypto";

/** What a provider accepts as a tool name. */
export const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A toolset's names both ways. */
export interface ToolNameMap {
  /** The provider name of a toolhost tool name. */
  toProvider(name: string): string;
  /** The toolhost name of a provider name; undefined for a name the toolset does not have. */
  fromProvider(providerName: string): string | undefined;
}

function digest(name: string): string {
  return createHash("sha256").update(name, "utf8").digest("hex").slice(0, 8);
}

/** The map of the tool names `names` (distinct). */
export function toolNameMap(names: readonly string[]): ToolNameMap {
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  // Acceptable names first: they keep their name, so a mapped one can never take it.
  const sorted = [...names].sort((a, b) => Number(!PROVIDER_TOOL_NAME.test(a)) - Number(!PROVIDER_TOOL_NAME.test(b)));
  for (const name of sorted) {
    let mapped = name.replace(/[^A-Za-z0-9_-]/g, "_");
    if (!PROVIDER_TOOL_NAME.test(name) && (mapped.length > 64 || backward.has(mapped) || names.includes(mapped))) {
      mapped = `${mapped.slice(0, 55)}_${digest(name)}`;
    }
    if (backward.has(mapped)) throw new Error(`tool names ${name} and ${backward.get(mapped)} map to one name`);
    forward.set(name, mapped);
    backward.set(mapped, name);
  }
  return {
    toProvider: (name) => forward.get(name) ?? name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
    fromProvider: (providerName) => backward.get(providerName),
  };
}
