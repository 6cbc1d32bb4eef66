/**
 * Bearer-key authentication. A request finds its key by the SHA-256 of the secret, in the identity
 * cache when a recent request used the same key, else in the database. A revocation removes the key
 * from the caches (`identity-cache.ts`), so it still takes effect on the very next request.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { KeyStore } from "../storage/storage.js";
import { readBearerToken } from "./bearer-token.js";
import type { Identity } from "./identity.js";
import { identityOfKey } from "./identity.js";
import type { IdentityCache } from "./identity-cache.js";
import { hashKeySecret, keyHashesEqual } from "./key-secret.js";

/** The identity of the key in `authorization`; throws 401 `unauthorized` when there is none. */
export async function authenticate(
  authorization: string | string[] | undefined,
  keys: KeyStore,
  cache?: IdentityCache,
): Promise<Identity> {
  const read = readBearerToken(authorization);
  if (!read.ok) {
    throw new ProtocolError(
      "unauthorized",
      read.reason === "missing"
        ? "an API key is required: send Authorization: Bearer <key>"
        : "malformed Authorization header: expected Bearer <key>",
    );
  }
  const hash = hashKeySecret(read.token);
  const cached = cache?.find(hash);
  if (cached !== undefined) return cached;
  const ticket = cache?.ticket() ?? 0;
  const key = await keys.findActiveByHash(hash);
  // Same answer for unknown and revoked keys: the caller learns nothing about which it was.
  if (key === undefined || key.revoked_at_ms !== null || !keyHashesEqual(key.key_hash, hash)) {
    throw new ProtocolError("unauthorized", "the API key is not valid");
  }
  const identity = identityOfKey(key);
  cache?.store(hash, identity, ticket);
  return identity;
}
