/**
 * The server package, loaded only by the commands that need it: `measure` and `preview` start without
 * loading Fastify, Kysely and the database drivers (hundreds of milliseconds saved on every run).
 */

/** The `@toolhost/server` module. */
export type ServerModule = typeof import("@toolhost/server");

let loading: Promise<ServerModule> | undefined;

/** Loads `@toolhost/server` once. */
export function loadServer(): Promise<ServerModule> {
  loading ??= import("@toolhost/server");
  return loading;
}

/**
 * The server's defaults as help texts show them (equal to the server's `SERVER_DEFAULTS`, which a test
 * checks), so showing help does not load the server.
 */
export const SHOWN_SERVER_DEFAULTS = {
  databaseUrl: "sqlite:./toolhost.db",
  host: "127.0.0.1",
  port: 8080,
} as const;
