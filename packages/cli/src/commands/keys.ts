/**
 * `toolhost keys create|list|revoke`: API keys managed straight in the database, no server needed —
 * how the first key of an installation is made. Keys are made by the server's own code (`createKey`:
 * the same secret format, hash and IDs as `POST /v1/keys`) and checked by the same wire schema.
 * Whoever can open the database owns the installation, so these commands act with the operator's
 * reach (`OPERATOR_REACH`: every scope, `"*"` agents, bindings and model connections): they create any key, and list and
 * revoke every key — unlike `/v1/keys`, where a narrowed admin stays within its own reach.
 */

import { isProtocolError } from "@toolhost/protocol";
import type { CreateKeyRequest, KeyInfo } from "@toolhost/protocol/wire";
import type { KeyRecord } from "@toolhost/server";
import type { Command } from "commander";
import type { CommandContext, CommandDefinition } from "../command-context.js";
import { CommandFailure, runReported } from "../command-failure.js";
import { addDatabaseOption, type DatabaseOptions, databaseUrlOf, withStorage } from "../database-option.js";
import { EXIT_STATUS, type ExitStatus } from "../exit-status.js";
import { displayPointer } from "../refusal.js";
import { loadServer } from "../server-module.js";

/** The options of `toolhost keys create`. */
export interface KeysCreateOptions extends DatabaseOptions {
  name: string;
  scopes: string;
  agents: string;
  bindings: string;
  connections: string;
  json?: boolean;
}

/** The options of `keys list` and `keys revoke`. */
export interface KeysOutputOptions extends DatabaseOptions {
  json?: boolean;
}

/** The scopes as `--help` lists them (the wire's SCOPE_NAMES, which a test checks; help loads no schemas). */
export const SHOWN_SCOPES = [
  "configuration:read",
  "configuration:write",
  "runtime:read",
  "runtime:write",
  "executors:connect",
  "tools:execute",
  "metrics:read",
  "admin",
] as const;

/** Keys read per page while listing. */
const LIST_PAGE = 200;

/** A comma-separated list option (`a,b`), or `*`; an empty value is the empty list. */
export function listOption(value: string): string[] | "*" {
  const trimmed = value.trim();
  if (trimmed === "*") return "*";
  return trimmed === "" ? [] : trimmed.split(",").map((item) => item.trim());
}

/** The `POST /v1/keys` body for the create options, checked by the route's schema; a bad one is a usage error naming the option. */
export async function createKeyRequestOf(options: KeysCreateOptions): Promise<CreateKeyRequest> {
  const { wireCheck } = await loadServer();
  const wire = await import("@toolhost/protocol/wire");
  const body = {
    name: options.name,
    scopes: options.scopes.split(",").map((scope) => scope.trim()),
    agents: listOption(options.agents),
    bindings: listOption(options.bindings),
    connections: listOption(options.connections),
  };
  try {
    return wireCheck(wire.CreateKeyRequest)(body);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    const pointer = error.pointer ?? "";
    const option = /^\/(name|scopes|agents|bindings|connections)\b/.exec(pointer)?.[1];
    const where = option === undefined ? "" : `--${option}: `;
    throw new CommandFailure(
      `${where}${error.code} at ${displayPointer(pointer)}: ${error.message}`,
      EXIT_STATUS.usage,
    );
  }
}

/** Creates a key; prints its secret (or, with --json, the whole created key) on standard output. */
export async function runKeysCreate(options: KeysCreateOptions, context: CommandContext): Promise<ExitStatus> {
  const request = await createKeyRequestOf(options);
  const { createKey, OPERATOR_REACH, systemClock } = await loadServer();
  const created = await withStorage(await databaseUrlOf(options, context), (storage) =>
    createKey(storage.keys, request, OPERATOR_REACH, systemClock),
  );
  if (options.json === true) {
    await context.stdout.write(`${JSON.stringify(created)}\n`);
  } else {
    await context.stdout.write(`${created.key}\n`);
    await context.stderr.write(
      `toolhost: created key ${created.key_id} (${created.scopes.join(", ")}); the secret above is shown only this once\n`,
    );
  }
  return EXIT_STATUS.ok;
}

/** One line of the key table (tab-separated; control characters in names shown escaped). */
export function keyLine(key: KeyInfo): string {
  const scope = (ids: KeyInfo["agents"]): string => (ids === "*" ? "*" : ids.join(",") || "-");
  const name = JSON.stringify(key.name).slice(1, -1);
  return [
    key.key_id,
    name,
    key.scopes.join(","),
    scope(key.agents),
    scope(key.bindings),
    scope(key.connections),
    key.created_at,
    key.revoked_at ?? "-",
  ].join("\t");
}

/** Lists every key in creation order: a table, or with --json one JSON object per line. */
export async function runKeysList(options: KeysOutputOptions, context: CommandContext): Promise<ExitStatus> {
  const { keyInfoOf, OPERATOR_REACH } = await loadServer();
  const keys: KeyRecord[] = await withStorage(await databaseUrlOf(options, context), async (storage) => {
    const all: KeyRecord[] = [];
    let cursor: string | null = null;
    do {
      const page = await storage.keys.list({ limit: LIST_PAGE, cursor }, OPERATOR_REACH);
      all.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return all;
  });
  const infos = keys.map(keyInfoOf);
  if (options.json === true) {
    for (const info of infos) await context.stdout.write(`${JSON.stringify(info)}\n`);
    return EXIT_STATUS.ok;
  }
  await context.stdout.write("KEY_ID\tNAME\tSCOPES\tAGENTS\tBINDINGS\tCONNECTIONS\tCREATED\tREVOKED\n");
  for (const info of infos) await context.stdout.write(`${keyLine(info)}\n`);
  return EXIT_STATUS.ok;
}

/** Revokes a key (idempotent: revoking again keeps the first time); an unknown key ID fails with status 1. */
export async function runKeysRevoke(
  keyId: string,
  options: KeysOutputOptions,
  context: CommandContext,
): Promise<ExitStatus> {
  const { OPERATOR_REACH, systemClock, announceKeyRevocation } = await loadServer();
  const databaseUrl = await databaseUrlOf(options, context);
  const revoked = await withStorage(databaseUrl, (storage) =>
    storage.keys.revoke(keyId, systemClock.nowMs(), OPERATOR_REACH),
  );
  if (revoked === undefined || revoked.revoked_at_ms === null) throw new CommandFailure(`key ${keyId} not found`);
  // Running servers cache identities: tell them (PostgreSQL), else they refuse the key within their cache TTL.
  await announceKeyRevocation(databaseUrl, keyId).catch(async (error: unknown) => {
    await context.stderr.write(
      `warning: could not tell running servers (${error instanceof Error ? error.message : String(error)}); they refuse the key within their identity cache TTL\n`,
    );
  });
  const revokedAt = new Date(revoked.revoked_at_ms).toISOString();
  await context.stdout.write(
    options.json === true
      ? `${JSON.stringify({ key_id: keyId, revoked: true, revoked_at: revokedAt })}\n`
      : `revoked ${keyId} at ${revokedAt}\n`,
  );
  return EXIT_STATUS.ok;
}

/** Defines `toolhost keys` and its subcommands. */
export const defineKeysCommand: CommandDefinition = (program, context) => {
  const keys = program
    .command("keys")
    .summary("create, list and revoke API keys in the database (no server needed)")
    .description("Manage API keys directly in the database; the server need not run.");
  const report = async (work: () => Promise<ExitStatus>): Promise<void> =>
    context.setExitStatus(await runReported(context, work));

  withJson(
    addDatabaseOption(
      keys
        .command("create")
        .summary("create a key and print its secret once")
        .requiredOption("--name <name>", "a label for people")
        .requiredOption("--scopes <list>", `comma-separated scopes: ${SHOWN_SCOPES.join(", ")}`)
        .option("--agents <list>", "agent IDs the key reaches, comma-separated, or '*' for all", "*")
        .option("--bindings <list>", "executor binding IDs the key reaches, comma-separated, or '*' for all", "*")
        .option(
          "--connections <list>",
          "model connection IDs the key's agent versions may name, comma-separated, or '*' for all",
          "*",
        ),
    ),
    "print the created key as JSON (key_id, name, scopes, agents, bindings, connections, created_at, key)",
  )
    .addHelpText(
      "after",
      `
Output:
  The secret (for Authorization: Bearer <key>) on standard output, shown only
  this once; the new key's ID on standard error. With --json, the created key
  as one JSON object. Example:
    KEY=$(toolhost keys create --name ci --scopes runtime:read --agents agent_1)

Exit status: 0 created, 1 the database failed, 2 usage error (unknown scope,
malformed ID list).`,
    )
    .action(async (options: KeysCreateOptions) => report(() => runKeysCreate(options, context)));

  withJson(
    addDatabaseOption(keys.command("list").summary("list keys (never their secrets)")),
    "one JSON object per key and line",
  ).action(async (options: KeysOutputOptions) => report(() => runKeysList(options, context)));

  withJson(
    addDatabaseOption(
      keys
        .command("revoke")
        .summary("revoke a key; it stops working on the next request")
        .argument("<key_id>", "the key's ID (key_…), as listed"),
    ),
    "print {key_id, revoked, revoked_at} as JSON",
  ).action(async (keyId: string, options: KeysOutputOptions) => report(() => runKeysRevoke(keyId, options, context)));
  return keys;
};

function withJson(command: Command, description: string): Command {
  return command.option("--json", description);
}
