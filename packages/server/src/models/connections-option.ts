/**
 * The `modelConnections` server option (`TOOLHOST_MODEL_CONNECTIONS`): a JSON object of model
 * connections, or `@path/to/file.json` naming a file that holds one (docs/configuration.md#model-connections).
 * Read and checked once, when the server starts: a bad entry, or an `api_key_env` that is not set,
 * stops it with a message naming the connection. The keys themselves stay in the environment and are
 * read when a request is made; they are never part of the compiled options, so they cannot be logged
 * with them.
 */

import { readFileSync } from "node:fs";
import { isProtocolError, type ModelConnections, validateModelConnections } from "@toolhost/protocol";

/** The connections as a JSON object: connection ID → its provider, base URL and key variable. */
export type ModelConnectionsObject = Readonly<
  Record<string, { readonly provider: string; readonly base_url: string; readonly api_key_env?: string }>
>;

/** The option as a caller may give it: the connections themselves, their JSON text, or `@file`. */
export type ModelConnectionsInput = string | ModelConnectionsObject;

/** Largest connections file read (they are a few hundred bytes each). */
const MAX_FILE_BYTES = 1024 * 1024;

/** No connection: the scripted model works without any. */
export const NO_CONNECTIONS: ModelConnections = new Map();

/** The JSON value the option holds (the file's, for `@path`). */
function jsonOf(raw: ModelConnectionsInput): unknown {
  if (typeof raw !== "string") return raw;
  let text = raw.trim();
  if (text.startsWith("@")) {
    const path = text.slice(1);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new Error(`cannot read ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (bytes.length > MAX_FILE_BYTES) throw new Error(`${JSON.stringify(path)} is over ${MAX_FILE_BYTES} bytes`);
    text = bytes.toString("utf8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`must be a JSON object or @path/to/file.json: ${(error as Error).message}`);
  }
}

/** `connection "<id>" (at <pointer>): ` for a pointer into an entry, else nothing. */
function whereOf(pointer: string | undefined): string {
  if (pointer === undefined || pointer === "") return "";
  const id = (pointer.split("/")[1] ?? "").replaceAll("~1", "/").replaceAll("~0", "~");
  return `connection ${JSON.stringify(id)} (at ${pointer}): `;
}

/**
 * The checked connections of `raw`; every `api_key_env` they name must be set (non-empty) in `env`.
 * Throws an Error whose message names the connection and member at fault (prefixed by the caller).
 */
export function parseModelConnections(
  raw: ModelConnectionsInput,
  env: Readonly<Record<string, string | undefined>>,
): ModelConnections {
  let connections: ModelConnections;
  try {
    connections = validateModelConnections(jsonOf(raw));
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    throw new Error(`${whereOf(error.pointer)}${error.message}`);
  }
  for (const [id, connection] of connections) {
    const name = connection.api_key_env;
    if (name !== null && (env[name] === undefined || env[name] === "")) {
      throw new Error(`connection ${JSON.stringify(id)}: its api_key_env ${name} is not set in the environment`);
    }
  }
  return connections;
}
