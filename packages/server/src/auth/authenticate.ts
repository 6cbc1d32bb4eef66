/**
 * Bearer-key authentication. Every request looks its key up by the SHA-256 of the secret (no cache),
 * so a revocation takes effect on the very next request.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { KeyStore } from "../storage/storage.js";
import { readBearerToken } from "./bearer-token.js";
import { type Identity, identityOfKey } from "./identity.js";
import { hashKeySecret, keyHashesEqual } from "./key-secret.js";

/** The identity of the key in `authorization`; throws 401 `unauthorized` when there is none. */
export async function authenticate(authorization: string | string[] | undefined, keys: KeyStore): Promise<Identity> {
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
  const key = await keys.findActiveByHash(hash);
  // Same answer for unknown and revoked keys: the caller learns nothing about which it was.
  if (key === undefined || key.revoked_at_ms !== null || !keyHashesEqual(key.key_hash, hash)) {
    throw new ProtocolError("unauthorized", "the API key is not valid");
  }
  return identityOfKey(key);
}
