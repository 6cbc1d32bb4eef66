/**
 * A stored receipt row's whole body, put back together the way the schema says (0017, 0022) and
 * written out here on its own rather than through the store's code, so tests that check "stored byte
 * for byte" check the rows themselves: the result text from its history item goes back into the
 * stored text at `result_at`, then the envelope (the row's columns and `body_grant`) goes in front.
 */

/** The columns of a raw receipt row this reads (either driver: numbers may be text or bigint). */
export interface RawReceiptRow {
  readonly executor_id: string;
  readonly claim_id: string;
  readonly receipt_id: string;
  readonly kind: string;
  readonly body_text: string;
  /** Bytes (a Buffer from either driver, or its JSON form `{type: "Buffer", data}` in a dump). */
  readonly body_grant?: unknown;
  readonly result_at?: unknown;
  readonly result_from?: unknown;
  readonly result_length?: unknown;
}

function grantBytes(grant: unknown): Buffer | null {
  if (grant === null || grant === undefined) return null;
  if (grant instanceof Uint8Array) return Buffer.from(grant);
  const data = (grant as { data?: unknown }).data;
  if (Array.isArray(data)) return Buffer.from(data as number[]);
  throw new Error(`body_grant is not bytes: ${JSON.stringify(grant)}`);
}

/** The body as received; `item` is the history item's `item_json` when the row names one. */
export function wholeReceiptBody(row: RawReceiptRow, item: string | null | undefined): string {
  let body = String(row.body_text);
  if (row.result_at !== null && row.result_at !== undefined) {
    const at = Number(row.result_at);
    const from = Number(row.result_from);
    body = body.slice(0, at) + String(item ?? "").slice(from, from + Number(row.result_length)) + body.slice(at);
  }
  const grant = grantBytes(row.body_grant);
  if (grant === null) return body;
  const q = JSON.stringify;
  // 32 bytes: the envelope in its first order; 33 with a first byte 1: the runners' order.
  if (grant.length === 33 && grant[0] === 1) {
    return (
      `{"receipt_id":${q(row.receipt_id)},"executor_id":${q(row.executor_id)},"claim_id":${q(row.claim_id)},` +
      `"grant":"${grant.subarray(1).toString("base64url")}","kind":${q(row.kind)}${body}`
    );
  }
  if (grant.length !== 32) throw new Error(`body_grant of ${grant.length} bytes`);
  return (
    `{"executor_id":${q(row.executor_id)},"claim_id":${q(row.claim_id)},"grant":"${grant.toString("base64url")}",` +
    `"receipt_id":${q(row.receipt_id)},"kind":${q(row.kind)}${body}`
  );
}
