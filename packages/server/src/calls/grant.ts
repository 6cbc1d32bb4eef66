/**
 * Per-call grants. A grant is `base64url(HMAC-SHA256(grant_key, claim_id:call_id:executor_id))`: bound
 * to one call, one claim and one stable executor ID, so another call's grant or a made-up one never
 * verifies. The call row stores only `hex(sha256(grant))`; a claim replay recomputes the same grant.
 * A grant is valid while `now < deadline_ms` of its call.
 */

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The name of the grant key in `server_secrets`. */
export const GRANT_KEY_NAME = "grant_key";

/** Bytes of a new grant key. */
export const GRANT_KEY_BYTES = 32;

/** A fresh random grant key, as stored (base64url text). */
export function newGrantKeyText(): string {
  return randomBytes(GRANT_KEY_BYTES).toString("base64url");
}

/** The grant key bytes of its stored text. */
export function grantKeyOf(text: string): Buffer {
  const key = Buffer.from(text, "base64url");
  if (key.length < GRANT_KEY_BYTES)
    throw new Error(`the stored ${GRANT_KEY_NAME} is shorter than ${GRANT_KEY_BYTES} bytes`);
  return key;
}

/** The grant of one claim on one call for one executor. */
export function signGrant(key: Buffer, claimId: string, callId: string, executorId: string): string {
  return createHmac("sha256", key).update(`${claimId}:${callId}:${executorId}`, "utf8").digest("base64url");
}

/** What the call row stores of a grant: lowercase hex SHA-256. */
export function grantHash(grant: string): string {
  return createHash("sha256").update(grant, "utf8").digest("hex");
}

/** Compares two secrets in constant time (their SHA-256 digests, so lengths never leak either). */
export function secretsEqual(a: string, b: string): boolean {
  const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
