/**
 * The bootstrap key: the secret from `TOOLHOST_BOOTSTRAP_KEY` becomes an admin key with every scope and
 * `"*"` agent, binding and model connection scopes. Idempotent: a key with the same hash is never stored twice, and a
 * revoked bootstrap key stays revoked across restarts (set a new secret to recover access).
 */

import type { Clock } from "../clock.js";
import { newId } from "../ids.js";
import { type KeyRecord, SCOPES, type Scope } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { hashKeySecret } from "./key-secret.js";

/** The name the bootstrap key is listed under. */
export const BOOTSTRAP_KEY_NAME = "bootstrap";

/** The stored record for a bootstrap secret (pure apart from the random ID). */
export function bootstrapKeyRecord(secret: string, atMs: number): KeyRecord {
  return {
    key_id: newId("key", atMs),
    name: BOOTSTRAP_KEY_NAME,
    key_hash: hashKeySecret(secret),
    scopes: Object.values(SCOPES) as Scope[],
    agents: "*",
    bindings: "*",
    connections: "*",
    created_at_ms: atMs,
    revoked_at_ms: null,
  };
}

/** Makes `secret` an admin key unless a key with its hash exists; true when it was stored now. */
export async function ensureBootstrapKey(storage: Storage, secret: string, clock: Clock): Promise<boolean> {
  return storage.keys.ensure(bootstrapKeyRecord(secret, clock.nowMs()));
}
