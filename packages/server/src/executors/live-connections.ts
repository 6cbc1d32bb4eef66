/**
 * The executors whose connections this server's pending polls found live lately, by executor ID,
 * connection ID and API key. A connection's bindings and tools never change (a reconnect is a new
 * connection ID), so a poll on a remembered connection takes them from here and checks that the
 * connection is still live inside its own statement (`PendingCallStore.poll` with a connection), one
 * statement instead of reading the executor first. A connection found not live is forgotten and the
 * executor read, to answer why (docs/storage.md#rows-read-once).
 *
 * Bounded: at most LIVE_CONNECTIONS_MAX entries and LIVE_CONNECTIONS_MAX_CHARACTERS characters of
 * IDs and names in all (an entry counts its texts plus ENTRY_CHARACTERS), the least recently used
 * dropped first; an executor row larger than ENTRY_MAX_CHARACTERS (a connection declaring
 * hundreds of long tool names) is not remembered, and its polls read it each time.
 */

import type { ExecutorRecord } from "../storage/records.js";

/** Most connections remembered per server. */
export const LIVE_CONNECTIONS_MAX = 4_096;

/** Most characters of IDs and names remembered per server (about 4 MiB). */
export const LIVE_CONNECTIONS_MAX_CHARACTERS = 2_097_152;

/** Largest entry remembered, in characters. */
export const ENTRY_MAX_CHARACTERS = 16_384;

/** What an entry counts besides its texts (the record's other members, the map's entry). */
const ENTRY_CHARACTERS = 256;

/** Remembered live connections, least recently used first. */
export class LiveConnections {
  readonly #entries = new Map<string, { readonly executor: ExecutorRecord; readonly characters: number }>();
  #characters = 0;

  constructor(
    private readonly max = LIVE_CONNECTIONS_MAX,
    private readonly maxCharacters = LIVE_CONNECTIONS_MAX_CHARACTERS,
  ) {}

  /** The executor of a remembered connection opened by `keyId`, if any (it becomes the most recent). */
  get(executorId: string, connectionId: string, keyId: string): ExecutorRecord | undefined {
    const key = keyOf(executorId, connectionId, keyId);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.executor;
  }

  /** Remembers `executor`'s current connection, found live for its key. */
  remember(executor: ExecutorRecord): void {
    const key = keyOf(executor.executor_id, executor.connection_id, executor.key_id);
    const characters = charactersOf(key, executor);
    this.#delete(key);
    if (characters > ENTRY_MAX_CHARACTERS) return;
    this.#entries.set(key, { executor, characters });
    this.#characters += characters;
    while (this.#entries.size > this.max || this.#characters > this.maxCharacters) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#delete(oldest.value);
    }
  }

  /** Forgets a connection found not live. */
  forget(executorId: string, connectionId: string, keyId: string): void {
    this.#delete(keyOf(executorId, connectionId, keyId));
  }

  /** How many connections are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /** The characters the remembered entries count. */
  get characters(): number {
    return this.#characters;
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#characters -= entry.characters;
  }
}

function charactersOf(key: string, executor: ExecutorRecord): number {
  let characters = ENTRY_CHARACTERS + key.length;
  for (const id of executor.binding_ids) characters += id.length;
  for (const name of executor.tool_names ?? []) characters += name.length;
  return characters;
}

function keyOf(executorId: string, connectionId: string, keyId: string): string {
  return `${executorId}\u0000${connectionId}\u0000${keyId}`;
}
