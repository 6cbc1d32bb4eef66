/**
 * A receipt body's stored form (0022): a body that opens with this envelope, in one of two orders —
 * exactly `{"executor_id":…,"claim_id":…,"grant":"<43 base64url>","receipt_id":…,"kind":…`, or the
 * runners' `{"receipt_id":…,"executor_id":…,"claim_id":…,"grant":"<43 base64url>","kind":…`, and then
 * `,` or `}` — is stored without it. The four values are the row's own columns, the grant its 32
 * bytes (`body_grant`; 33 for the second order, the first byte 1); the envelope is rebuilt from them when read, the same text to the byte,
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

/** A body without its envelope: the text after it (starting `,` or `}`) and the grant's stored bytes. */
export interface ElidedBody {
  readonly rest: string;
  readonly grant: Buffer;
}

/** The base64url text (no padding) of 32 bytes is 43 characters. */
const GRANT_CHARS = 43;
const GRANT_BYTES = 32;

/** A lone surrogate: such a value is not stored as it is (UTF-8 columns), so its envelope could not be rebuilt. */
const LONE_SURROGATE = /\p{Cs}/u;

/** One envelope member order: the text before the grant's characters, and after them. */
interface Layout {
  head(columns: EnvelopeColumns): string;
  tail(columns: EnvelopeColumns): string;
}

const json = JSON.stringify;

/**
 * The orders elided. The first is stored as the grant's 32 bytes; layout i > 0 as 33, the first of
 * them i. The second is the order the TypeScript and Python runners write (`receipt-body.ts`,
 * `decisions.py`).
 */
const LAYOUTS: readonly Layout[] = [
  {
    head: (c) => `{"executor_id":${json(c.executor_id)},"claim_id":${json(c.claim_id)},"grant":"`,
    tail: (c) => `","receipt_id":${json(c.receipt_id)},"kind":${json(c.kind)}`,
  },
  {
    head: (c) =>
      `{"receipt_id":${json(c.receipt_id)},"executor_id":${json(c.executor_id)},"claim_id":${json(c.claim_id)},"grant":"`,
    tail: (c) => `","kind":${json(c.kind)}`,
  },
];

/** The envelope's text for `columns` and the stored grant bytes (what an elided body is put back behind). */
export function envelopeText(columns: EnvelopeColumns, grant: Uint8Array): string {
  const bytes = Buffer.from(grant);
  const index = bytes.length === GRANT_BYTES ? 0 : (bytes[0] as number);
  const layout = LAYOUTS[index];
  if (layout === undefined || bytes.length !== (index === 0 ? GRANT_BYTES : GRANT_BYTES + 1))
    throw new Error(`a stored receipt grant of ${bytes.length} bytes names no envelope layout`);
  const grantText = (index === 0 ? bytes : bytes.subarray(1)).toString("base64url");
  return layout.head(columns) + grantText + layout.tail(columns);
}

/** `body` without its envelope, or undefined when it must be stored whole. */
export function elideEnvelope(body: string, columns: EnvelopeColumns): ElidedBody | undefined {
  const { executor_id, claim_id, receipt_id, kind } = columns;
  if ([executor_id, claim_id, receipt_id, kind].some((value) => LONE_SURROGATE.test(value))) return undefined;
  for (const [index, layout] of LAYOUTS.entries()) {
    const opening = layout.head(columns);
    if (!body.startsWith(opening)) continue;
    const grantText = body.slice(opening.length, opening.length + GRANT_CHARS);
    const closing = layout.tail(columns);
    const end = opening.length + GRANT_CHARS + closing.length;
    if (!body.startsWith(closing, opening.length + GRANT_CHARS)) continue;
    const next = body[end];
    if (next !== "," && next !== "}") continue;
    if (grantText.length !== GRANT_CHARS) continue;
    const grant = Buffer.from(grantText, "base64url");
    if (grant.length !== GRANT_BYTES || grant.toString("base64url") !== grantText) continue;
    return { rest: body.slice(end), grant: index === 0 ? grant : Buffer.concat([Buffer.from([index]), grant]) };
  }
  return undefined;
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
