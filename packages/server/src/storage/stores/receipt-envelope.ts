/**
 * A receipt body's stored form (0022): a body that opens with this envelope, in this order —
 * exactly `{"executor_id":…,"claim_id":…,"grant":"<43 base64url>","receipt_id":…,"kind":…` and then
 * `,` or `}` — is stored without it. The four values are the row's own columns, the grant its 32
 * bytes (`body_grant`); the envelope is rebuilt from them when read, the same text to the byte,
 * because only a body whose envelope is exactly what `envelopeText` writes is elided. Any other body
 * (another member order, spacing, escapes, a grant of another length) is stored whole, `body_grant`
 * NULL.
 *
 * With a result reference (0017) the order is: the envelope is cut first and `result_at` is an
 * offset into the envelope-elided text that is stored; reading puts the result back first, then the
 * envelope. A result found inside the envelope (it can only be there by coincidence) keeps the
 * envelope in the body.
 *
 * Pure: no storage here, so every writer and reader of the rows (and the migration's down) uses the
 * same functions.
 */

/** The row's columns an envelope repeats. */
export interface EnvelopeColumns {
  readonly executor_id: string;
  readonly claim_id: string;
  readonly receipt_id: string;
  readonly kind: string;
}

/** A body without its envelope: the text after it (starting `,` or `}`) and the grant's bytes. */
export interface ElidedBody {
  readonly rest: string;
  readonly grant: Buffer;
}

/** The base64url text (no padding) of 32 bytes is 43 characters. */
const GRANT_CHARS = 43;
const GRANT_BYTES = 32;

/** A lone surrogate: such a value is not stored as it is (UTF-8 columns), so its envelope could not be rebuilt. */
const LONE_SURROGATE = /\p{Cs}/u;

function head(columns: EnvelopeColumns): string {
  return `{"executor_id":${JSON.stringify(columns.executor_id)},"claim_id":${JSON.stringify(columns.claim_id)},"grant":"`;
}

function tail(columns: EnvelopeColumns): string {
  return `","receipt_id":${JSON.stringify(columns.receipt_id)},"kind":${JSON.stringify(columns.kind)}`;
}

/** The envelope's text for `columns` and the grant's bytes (what an elided body is put back behind). */
export function envelopeText(columns: EnvelopeColumns, grant: Uint8Array): string {
  return head(columns) + Buffer.from(grant).toString("base64url") + tail(columns);
}

/** `body` without its envelope, or undefined when it must be stored whole. */
export function elideEnvelope(body: string, columns: EnvelopeColumns): ElidedBody | undefined {
  const { executor_id, claim_id, receipt_id, kind } = columns;
  if ([executor_id, claim_id, receipt_id, kind].some((value) => LONE_SURROGATE.test(value))) return undefined;
  const opening = head(columns);
  if (!body.startsWith(opening)) return undefined;
  const grantText = body.slice(opening.length, opening.length + GRANT_CHARS);
  const closing = tail(columns);
  const end = opening.length + GRANT_CHARS + closing.length;
  if (!body.startsWith(closing, opening.length + GRANT_CHARS)) return undefined;
  const next = body[end];
  if (next !== "," && next !== "}") return undefined;
  if (grantText.length !== GRANT_CHARS) return undefined;
  const grant = Buffer.from(grantText, "base64url");
  if (grant.length !== GRANT_BYTES || grant.toString("base64url") !== grantText) return undefined;
  return { rest: body.slice(end), grant };
}

/** The body of stored text `text` and grant bytes `grant` (NULL: stored whole). */
export function restoreEnvelope(text: string, grant: Uint8Array | null, columns: EnvelopeColumns): string {
  return grant === null ? text : envelopeText(columns, grant) + text;
}

/** Where a body's result text is, and how long (UTF-16 offsets). */
export interface ResultSpan {
  readonly at: number;
  readonly length: number;
}

/** A body as stored: `body_text`, `body_grant` and where the result goes back (`result_at`). */
export interface StoredBody {
  readonly body_text: string;
  readonly body_grant: Buffer | null;
  /** Into `body_text`; null without a result reference. */
  readonly result_at: number | null;
}

/**
 * The stored form of `body`: the envelope cut, then (with `result`, a span of the whole body) the
 * result text cut from what is left.
 */
export function storedBody(body: string, columns: EnvelopeColumns, result?: ResultSpan): StoredBody {
  let elided = elideEnvelope(body, columns);
  const cut = elided === undefined ? 0 : body.length - elided.rest.length;
  // A result found inside the envelope keeps the envelope in the body.
  if (result !== undefined && result.at < cut) elided = undefined;
  const text = elided === undefined ? body : elided.rest;
  const grant = elided === undefined ? null : elided.grant;
  if (result === undefined) return { body_text: text, body_grant: grant, result_at: null };
  const at = result.at - (elided === undefined ? 0 : cut);
  return { body_text: text.slice(0, at) + text.slice(at + result.length), body_grant: grant, result_at: at };
}

/**
 * The whole body of a stored one: `result` (the result text, with `at` its `result_at`) put back into
 * `text` first, then the envelope.
 */
export function wholeStoredBody(
  text: string,
  grant: Uint8Array | null,
  columns: EnvelopeColumns,
  result?: { readonly at: number; readonly text: string },
): string {
  const withResult = result === undefined ? text : text.slice(0, result.at) + result.text + text.slice(result.at);
  return restoreEnvelope(withResult, grant, columns);
}
