/** API-key secrets: how they are made, hashed for storage and compared. */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Every generated secret starts with this, so leaked keys are easy to recognise and scan for. */
export const KEY_SECRET_PREFIX = "th_";

/** Random bytes in a generated secret (256 bits). */
export const KEY_SECRET_BYTES = 32;

/** A new secret: `th_` + 32 random bytes in base64url (46 characters). */
export function generateKeySecret(): string {
  return KEY_SECRET_PREFIX + randomBytes(KEY_SECRET_BYTES).toString("base64url");
}

/** The stored form of a secret: lowercase hex SHA-256 of its UTF-8. */
export function hashKeySecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time equality of two hex key hashes (false when either is not 64 hex digits). */
export function keyHashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}
