/**
 * Per-call grants. A grant is `base64url(HMAC-SHA256(grant_key, input))` where `input` is the JSON
 * array `["toolhost-grant-v2", claim_id, call_id, executor_id, key_id]`: bound to one claim, one call,
 * one stable executor ID and the API key that made the claim, and encoded so that no ID — whatever
 * characters it holds — can shift into another field (the old `claim:call:executor` text let an
 * executor ID holding `:` do that). The call row stores only `hex(sha256(grant))` of the grant issued.
 *
 * Grants issued before this format (`legacyGrant`) are still honoured for the claim that holds the call,
 * because the row stores the hash of exactly that grant; they are never issued for a new claim.
 */

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The name of the grant key in `server_secrets`. */
export const GRANT_KEY_NAME = "grant_key";

/** Bytes of a new grant key. */
export const GRANT_KEY_BYTES = 32;

/** The first member of a grant's signed input: names the format, so no other signed text can collide. */
export const GRANT_FORMAT = "toolhost-grant-v2";

/** What a grant is bound to. */
export interface GrantSubject {
  readonly claimId: string;
  readonly callId: string;
  readonly executorId: string;
  /** The API key that made the claim (the executor's key at that moment). */
  readonly keyId: string;
}

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

/** The exact text a grant signs: a JSON array of strings, so field boundaries are unambiguous. */
export function grantInput(subject: GrantSubject): string {
  return JSON.stringify([GRANT_FORMAT, subject.claimId, subject.callId, subject.executorId, subject.keyId]);
}

/** The grant of one claim on one call for one executor, made with one API key. */
export function signGrant(key: Buffer, subject: GrantSubject): string {
  return createHmac("sha256", key).update(grantInput(subject), "utf8").digest("base64url");
}

/** The grant the server issued before the current format (`claim:call:executor`); only ever recomputed. */
export function legacyGrant(key: Buffer, claimId: string, callId: string, executorId: string): string {
  return createHmac("sha256", key).update(`${claimId}:${callId}:${executorId}`, "utf8").digest("base64url");
}

/**
 * The grant a claim replay answers: the grant whose hash the call row holds, when it is the one this
 * key is issued (current format) or the one issued before the upgrade (legacy format). Undefined when
 * the stored grant was issued to another API key (the executor reconnected with a new key since): a
 * grant is never issued again to a key it was not made for.
 */
export function reissuedGrant(key: Buffer, subject: GrantSubject, storedHash: string | null): string | undefined {
  if (storedHash === null) return undefined;
  const current = signGrant(key, subject);
  if (secretsEqual(grantHash(current), storedHash)) return current;
  const legacy = legacyGrant(key, subject.claimId, subject.callId, subject.executorId);
  if (secretsEqual(grantHash(legacy), storedHash)) return legacy;
  return undefined;
}

/** What the call row stores of a grant: lowercase hex SHA-256. */
export function grantHash(grant: string): string {
  return createHash("sha256").update(grant, "utf8").digest("hex");
}

/**
 * Compares two secrets in constant time for their length. Only the length may show, and it is no
 * secret here: a grant is always 43 characters and its stored hash 64 (hashing both sides first, as
 * this did, cost two SHA-256 per comparison on every receipt).
 */
export function secretsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  // UTF-16 code units, as the strings hold them: lossless, unlike UTF-8 for a lone surrogate.
  return timingSafeEqual(Buffer.from(a, "utf16le"), Buffer.from(b, "utf16le"));
}
