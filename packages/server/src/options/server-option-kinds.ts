/**
 * The server's own option kinds, beside the generic ones of option-kinds.ts: the database URL, the
 * host, the bootstrap secret, the public URL, the console's directory, the model connections and
 * the log destination.
 */

import { resolve } from "node:path";
import type { ModelConnections } from "@toolhost/protocol";
import type { DestinationStream } from "pino";
import { type ModelConnectionsInput, parseModelConnections } from "../models/connections-option.js";
import { parseDatabaseUrl } from "../storage/database-url.js";
import { custom, type OptionKind, parsed, refused } from "./option-kinds.js";

/** Longest bootstrap secret accepted (the Authorization header must carry it). */
export const MAX_BOOTSTRAP_KEY_LENGTH = 512;

/** A bearer token: visible ASCII without spaces (what an Authorization header can carry verbatim). */
export const BEARER_TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/** Longest public URL accepted. */
export const MAX_PUBLIC_URL_LENGTH = 2_048;

/** `sqlite:PATH`, `sqlite::memory:` or `postgres://…`, as `parseDatabaseUrl` reads them. */
export const databaseUrlKind: OptionKind<string, string> = custom({
  parse: (raw) => {
    if (typeof raw !== "string") return refused("must be a string");
    try {
      parseDatabaseUrl(raw);
    } catch (error) {
      return refused((error as Error).message);
    }
    return parsed(raw);
  },
  accepts: "`sqlite:PATH`, `sqlite::memory:` or `postgres://…`",
});

/** A host name or an IP address (IPv6 with or without brackets, a zone after `%`). */
export const hostKind: OptionKind<string, string> = custom({
  parse: (raw) =>
    typeof raw === "string" && /^[A-Za-z0-9.:_%[\]-]+$/.test(raw)
      ? parsed(raw)
      : refused("must be a host name or an IP address"),
  accepts: "a host name or an IP address",
});

/** A secret a bearer token can carry; its problem never echoes the value. */
export const bootstrapKeyKind: OptionKind<string, string> = custom({
  parse: (raw) =>
    typeof raw === "string" && raw.length <= MAX_BOOTSTRAP_KEY_LENGTH && BEARER_TOKEN_PATTERN.test(raw)
      ? parsed(raw)
      : refused(`must be 1 to ${MAX_BOOTSTRAP_KEY_LENGTH} visible ASCII characters without spaces`),
  accepts: `1 to ${MAX_BOOTSTRAP_KEY_LENGTH} visible ASCII characters without spaces`,
  show: () => "(secret)",
});

/** An http(s) base URL without query or fragment; the trailing slash is dropped (the paths start with one). */
export const publicUrlKind: OptionKind<string, string> = custom({
  parse: (raw) => {
    let url: URL | undefined;
    try {
      url = typeof raw === "string" && raw.length <= MAX_PUBLIC_URL_LENGTH ? new URL(raw) : undefined;
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
      return refused("must be an http or https URL without query or fragment (https://tools.example.com)");
    }
    return parsed(url.href.replace(/\/+$/, ""));
  },
  accepts: "an http or https URL without query or fragment",
});

/** A directory path, resolved against the working directory once, at start. */
export const directoryKind: OptionKind<string, string> = custom({
  parse: (raw) => (typeof raw === "string" ? parsed(resolve(raw)) : refused("must be a directory path")),
  accepts: "a directory path",
});

/** The model connections: a JSON object, its text, or `@path/to/file.json`; every `api_key_env` must be set. */
export const modelConnectionsKind: OptionKind<ModelConnectionsInput, ModelConnections> = custom({
  parse: (raw, env) => {
    if (typeof raw !== "string" && (typeof raw !== "object" || raw === null)) {
      return refused("must be a JSON object or @path/to/file.json");
    }
    try {
      return parsed(parseModelConnections(raw as ModelConnectionsInput, env));
    } catch (error) {
      return refused((error as Error).message);
    }
  },
  accepts: "a JSON object or `@path/to/file.json`",
});

/** A stream pino writes log lines to. */
export const logDestinationKind: OptionKind<DestinationStream, DestinationStream> = custom({
  parse: (raw) =>
    typeof raw === "object" && raw !== null && typeof (raw as { write?: unknown }).write === "function"
      ? parsed(raw as DestinationStream)
      : refused("must be a stream with a write method"),
  accepts: "a stream",
});
