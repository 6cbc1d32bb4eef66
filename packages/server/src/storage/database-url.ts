/**
 * Database URLs (pure parsing, no I/O).
 *
 * - `sqlite:PATH`: a SQLite file, PATH relative to the working directory or absolute; `sqlite:///abs/x.db`
 *   and `sqlite://rel.db` are accepted too (a leading `//` is dropped). `sqlite::memory:` is an in-memory
 *   database (tests only: it vanishes with the process).
 * - `postgres://…` or `postgresql://…`: a PostgreSQL connection string as `pg` reads it. The optional
 *   query parameter `schema=NAME` selects the schema the server's tables live in: it becomes the
 *   `search_path` of every pooled connection (as a startup option) and is created when missing. NAME is a plain identifier
 *   (letters, digits, `_`, not starting with a digit, at most 63 characters) and is case-sensitive.
 */

import { DIALECTS } from "./storage.js";

/** Where the server's data lives, as parsed from a database URL. */
export type DatabaseLocation =
  | { dialect: typeof DIALECTS.sqlite; path: string }
  | {
      dialect: typeof DIALECTS.postgres;
      /** The URL without `schema` (and without `options` when a schema is given: see `options`). */
      connectionString: string;
      /** The schema named by `?schema=`, if any. */
      schema: string | undefined;
      /** PostgreSQL startup options: the URL's own `options` plus `-c search_path=…` for the schema. */
      options: string | undefined;
    };

/** The SQLite path that makes an in-memory database. */
export const SQLITE_MEMORY_PATH = ":memory:";

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Parses a database URL; throws an Error naming the problem (never echoing a password). */
export function parseDatabaseUrl(url: string): DatabaseLocation {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === "sqlite") {
    let path = url.slice("sqlite:".length);
    if (path.startsWith("//")) path = path.slice(2);
    if (path === "") throw new Error("database URL sqlite: needs a path, e.g. sqlite:./toolhost.db or sqlite::memory:");
    return { dialect: DIALECTS.sqlite, path };
  }
  if (scheme === "postgres" || scheme === "postgresql") return parsePostgresUrl(url);
  const shown = scheme === undefined ? "no scheme" : `scheme "${scheme}:"`;
  throw new Error(
    `unsupported database URL (${shown}): use sqlite:PATH, sqlite::memory:, postgres://… or postgresql://…`,
  );
}

function parsePostgresUrl(url: string): DatabaseLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`malformed PostgreSQL URL: ${redactDatabaseUrl(url)}`);
  }
  const schemas = parsed.searchParams.getAll("schema");
  if (schemas.length > 1) throw new Error("PostgreSQL URL: the schema parameter is given more than once");
  const schema = schemas[0];
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(
      `PostgreSQL URL: schema "${schema}" is not a plain identifier (letters, digits and _, not starting with a digit, at most 63 characters)`,
    );
  }
  let options: string | undefined;
  if (schema !== undefined) {
    // The search_path travels as a startup option, so every pooled connection has it from its first
    // statement on, with no extra round trip. `pg` lets the URL's own `options` override the config's,
    // so that parameter moves out of the URL and is kept in front of ours.
    const own = parsed.searchParams.get("options");
    options = `${own === null || own === "" ? "" : `${own} `}-c search_path="${schema}"`;
    parsed.searchParams.delete("options");
    parsed.searchParams.delete("schema");
  }
  return { dialect: DIALECTS.postgres, connectionString: parsed.toString(), schema, options };
}

/** The URL with any password replaced by `****`, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/, "$1:****@");
}
