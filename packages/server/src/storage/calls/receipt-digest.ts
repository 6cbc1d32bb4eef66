/**
 * A receipt's body digest as stored (0019): the 32 bytes of its SHA-256, not the 71 characters of
 * `sha256:` and hex the records carry (about 120 bytes per completed call). Converted here, at the
 * store's edge, so nothing above it sees the difference.
 */

const SHA256_TEXT = /^sha256:[0-9a-f]{64}$/;

/** The stored bytes of a `sha256:<hex>` digest; any other text is a caller's bug (throws). */
export function storedDigest(digest: string): Buffer {
  if (!SHA256_TEXT.test(digest))
    throw new Error(`a receipt digest must be sha256:<64 hex>, not ${JSON.stringify(digest)}`);
  return Buffer.from(digest.slice("sha256:".length), "hex");
}

/** The `sha256:<hex>` text of stored digest bytes. */
export function digestOfStored(bytes: Uint8Array): string {
  return `sha256:${Buffer.from(bytes).toString("hex")}`;
}
