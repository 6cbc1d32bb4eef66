/**
 * Publishes the runner's code-first tools as a toolset version over HTTP: a new toolset
 * (`POST /v1/toolsets`) or the next version of an existing one (`POST /v1/toolsets/{id}/versions`),
 * unless its latest version already says what the code says (then nothing is published).
 */

import type { CreatedToolset, Tool, ToolInput, Toolset, ToolsetVersion } from "@toolhost/protocol/wire";
import { RunnerError } from "./errors.js";

/** What `publishToolset` needs besides the tools. */
export interface PublishToolsetOptions {
  /** The toolset to publish a version of; omit to create a toolset (then `name` is required). */
  readonly toolsetId?: string;
  /** The new toolset's name (only without `toolsetId`). */
  readonly name?: string;
  /** A key with the scope `configuration:write`; default the runner's own key. */
  readonly apiKey?: string;
}

/** What was published. */
export interface PublishedToolset {
  readonly toolsetId: string;
  /** The version that holds the code's tools. */
  readonly version: number;
  /** False when the latest version already held them (nothing was published). */
  readonly published: boolean;
}

/** Where and how to send the requests. */
export interface PublishTarget {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly fetch: typeof fetch;
}

/** Publishes `tools` (see the module comment). Throws RunnerError `publish_refused` when the server refuses. */
export async function publishToolset(
  target: PublishTarget,
  tools: readonly ToolInput[],
  options: PublishToolsetOptions,
): Promise<PublishedToolset> {
  const send = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await target.fetch(`${target.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${target.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new RunnerError("publish_refused", `${method} ${path} answered ${response.status}: ${text}`, {
        status: response.status,
      });
    }
    return JSON.parse(text) as T;
  };
  if (options.toolsetId === undefined) {
    if (options.name === undefined) {
      throw new RunnerError("invalid_registration", "publishToolset needs a toolsetId or the name of a new toolset");
    }
    const created = await send<CreatedToolset>("POST", "/v1/toolsets", { name: options.name, tools });
    return { toolsetId: created.toolset_id, version: created.version, published: true };
  }
  const id = encodeURIComponent(options.toolsetId);
  const toolset = await send<Toolset>("GET", `/v1/toolsets/${id}`);
  const latest = await send<ToolsetVersion>("GET", `/v1/toolsets/${id}/versions/${toolset.latest_version}`);
  if (sameTools(tools, latest.tools)) {
    return { toolsetId: options.toolsetId, version: latest.version, published: false };
  }
  const version = await send<ToolsetVersion>("POST", `/v1/toolsets/${id}/versions`, { tools });
  return { toolsetId: options.toolsetId, version: version.version, published: true };
}

/** True when every field the code sets equals the stored tool's, tool by tool, in order. */
function sameTools(code: readonly ToolInput[], stored: readonly Tool[]): boolean {
  if (code.length !== stored.length) return false;
  return code.every((tool, index) => {
    const other = stored[index] as Tool & Record<string, unknown>;
    return Object.entries(tool).every(([field, value]) => canonical(value) === canonical(other[field]));
  });
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === "object" && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : member,
  );
}
