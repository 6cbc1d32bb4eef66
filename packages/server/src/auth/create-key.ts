/**
 * Creating an API key: a fresh secret, its hash and a new ID. The one code path behind `POST /v1/keys`
 * and `toolhost keys create`, so both make keys the same way; the secret is answered once, never stored.
 * The creator's reach bounds the new key (`decideNewKeyScopes`): the route passes the caller's key,
 * the CLI `OPERATOR_REACH` (it works straight on the database, so its user owns the installation).
 */

import type { CreatedKey, CreateKeyRequest, KeyInfo } from "@toolhost/protocol/wire";
import type { Clock } from "../clock.js";
import { isoTime, isoTimeOrNull } from "../http/wire-time.js";
import { newId } from "../ids.js";
import type { KeyRecord } from "../storage/records.js";
import type { KeyStore } from "../storage/storage.js";
import { decideNewKeyScopes, type KeyReach } from "./key-reach.js";
import { generateKeySecret, hashKeySecret } from "./key-secret.js";

/** The listed form of a stored key (no secret, no hash). */
export function keyInfoOf(key: KeyRecord): KeyInfo {
  return {
    key_id: key.key_id,
    name: key.name,
    scopes: key.scopes,
    agents: key.agents,
    bindings: key.bindings,
    connections: key.connections,
    created_at: isoTime(key.created_at_ms),
    revoked_at: isoTimeOrNull(key.revoked_at_ms),
  };
}

/**
 * The record of a new key `creator` makes for a (validated) request, and its secret; omitted
 * `agents`/`bindings`/`connections` are the creator's. Throws 403 `forbidden` when the request reaches beyond the creator.
 */
export function newKeyRecord(
  request: CreateKeyRequest,
  creator: KeyReach,
  atMs: number,
): { record: KeyRecord; secret: string } {
  const { scopes, agents, bindings, connections } = decideNewKeyScopes(creator, request);
  const secret = generateKeySecret();
  const record: KeyRecord = {
    key_id: newId("key", atMs),
    name: request.name,
    key_hash: hashKeySecret(secret),
    scopes,
    agents,
    bindings,
    connections,
    created_at_ms: atMs,
    revoked_at_ms: null,
  };
  return { record, secret };
}

/** Stores a new key `creator` makes for a (validated) request and answers it with its secret, shown this once. */
export async function createKey(
  keys: KeyStore,
  request: CreateKeyRequest,
  creator: KeyReach,
  clock: Clock,
): Promise<CreatedKey> {
  const { record, secret } = newKeyRecord(request, creator, clock.nowMs());
  await keys.insert(record);
  const { revoked_at: _revoked, ...info } = keyInfoOf(record);
  return { ...info, key: secret };
}
