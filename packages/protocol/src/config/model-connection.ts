/**
 * Model connections: the endpoints (and their keys) the operator declares for the HTTP providers, in
 * the server option `modelConnections` (docs/configuration.md#model-connections). An agent version
 * names one by its ID; it never carries a URL or a key itself, so a tenant can only reach what the
 * operator gave it. Checked when the server starts: a bad entry stops it, with a pointer naming the
 * entry and its member.
 */

import { ProtocolError } from "../errors.js";
import { pointerAppend } from "../json/pointer.js";
import { isPlainObject, type PlainObject, toPlainJson } from "./plain-json.js";
import { jsonTypeName, refuseUnknownFields, requiredMember } from "./strict-fields.js";

/** What a connection ID may be: lowercase letters, digits and `._-`, starting with a letter or digit, 1–64 characters. */
export const CONNECTION_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** An environment variable name (what `api_key_env` may hold). */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Most connections one server declares (they are read into every key's reach check). */
export const MAX_CONNECTIONS = 256;

/** Longest base URL, in characters. */
export const BASE_URL_MAX_LENGTH = 2048;

/** The providers a connection may serve. */
export const CONNECTION_PROVIDERS = ["openai", "anthropic"] as const;

/** One provider a connection serves. */
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

/** One declared connection. */
export interface ModelConnection {
  readonly provider: ConnectionProvider;
  /** The endpoint's base URL (`…/v1` for OpenAI-compatible ones); requests go only below it. */
  readonly base_url: string;
  /** The server's environment variable holding the key; null when the endpoint needs none. */
  readonly api_key_env: string | null;
}

/** Every declared connection, by ID. */
export type ModelConnections = ReadonlyMap<string, ModelConnection>;

const FIELDS = ["provider", "base_url", "api_key_env"] as const;

function fail(message: string, pointer: string): never {
  throw new ProtocolError("validation_failed", message, pointer);
}

/** The checked base URL: absolute http(s), no credentials, no query or fragment (they would change the paths the SDKs append). */
function baseUrlOf(value: unknown, pointer: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > BASE_URL_MAX_LENGTH) {
    fail(`base_url must be an http or https URL of at most ${BASE_URL_MAX_LENGTH} characters`, pointer);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`base_url must be an absolute http or https URL; got ${JSON.stringify(value)}`, pointer);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail(`base_url must use http or https; got ${JSON.stringify(url.protocol)}`, pointer);
  }
  if (url.username !== "" || url.password !== "") fail("base_url must not carry credentials; use api_key_env", pointer);
  if (value.includes("?") || value.includes("#")) fail("base_url must have no query and no fragment", pointer);
  return value;
}

function connectionOf(entry: unknown, pointer: string): ModelConnection {
  if (!isPlainObject(entry)) fail(`a connection must be a JSON object; got ${jsonTypeName(entry)}`, pointer);
  const object: PlainObject = entry;
  refuseUnknownFields(object, FIELDS, pointer, "a model connection");
  const provider = requiredMember(object, "provider", pointer);
  if (typeof provider !== "string" || !(CONNECTION_PROVIDERS as readonly string[]).includes(provider)) {
    fail(
      `provider must be one of ${CONNECTION_PROVIDERS.map((name) => JSON.stringify(name)).join(", ")}`,
      pointerAppend(pointer, "provider"),
    );
  }
  const baseUrl = baseUrlOf(requiredMember(object, "base_url", pointer), pointerAppend(pointer, "base_url"));
  const keyEnv = object.api_key_env;
  if (keyEnv !== undefined && (typeof keyEnv !== "string" || !ENV_NAME_PATTERN.test(keyEnv))) {
    fail(
      "api_key_env must name an environment variable (letters, digits and _, not starting with a digit)",
      pointerAppend(pointer, "api_key_env"),
    );
  }
  return { provider: provider as ConnectionProvider, base_url: baseUrl, api_key_env: keyEnv ?? null };
}

/**
 * Validates the declared connections (a JSON object of connection ID → connection); throws a
 * ProtocolError whose pointer names the entry (`/<id>`) and member. An empty object declares none.
 */
export function validateModelConnections(input: unknown): ModelConnections {
  const value = toPlainJson(input);
  if (!isPlainObject(value)) fail(`model connections must be a JSON object; got ${jsonTypeName(value)}`, "");
  const ids = Object.keys(value);
  if (ids.length > MAX_CONNECTIONS) fail(`at most ${MAX_CONNECTIONS} model connections; got ${ids.length}`, "");
  const connections = new Map<string, ModelConnection>();
  for (const id of ids) {
    const pointer = pointerAppend("", id);
    if (!CONNECTION_ID_PATTERN.test(id)) {
      fail(
        `connection ID ${JSON.stringify(id)} must be 1 to 64 lowercase letters, digits and ._- starting with a letter or digit`,
        pointer,
      );
    }
    connections.set(id, connectionOf(value[id], pointer));
  }
  return connections;
}
