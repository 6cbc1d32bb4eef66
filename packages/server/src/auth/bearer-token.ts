/** Reading the bearer token out of an `Authorization` header (pure; RFC 6750 §2.1). */

/** Longest token considered; longer headers are refused without a lookup. */
export const MAX_BEARER_TOKEN_LENGTH = 512;

/** The token, or why the header does not carry one. */
export type BearerTokenResult =
  | { readonly ok: true; readonly token: string }
  | { readonly ok: false; readonly reason: "missing" | "malformed" };

/** Extracts the token from `Authorization: Bearer <token>` (scheme case-insensitive). */
export function readBearerToken(header: string | string[] | undefined): BearerTokenResult {
  if (header === undefined || header === "") return { ok: false, reason: "missing" };
  if (typeof header !== "string") return { ok: false, reason: "malformed" };
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
  const token = match?.[1];
  if (token === undefined || token.length > MAX_BEARER_TOKEN_LENGTH) return { ok: false, reason: "malformed" };
  return { ok: true, token };
}
