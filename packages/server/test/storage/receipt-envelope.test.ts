// A receipt body's stored form (0022): the envelope is cut only when it is exactly the one the
// columns and grant rebuild, and every body — any text, any column values — reads back byte for byte,
// with or without a result reference.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type EnvelopeColumns,
  elideEnvelope,
  envelopeText,
  restoreEnvelope,
  storedBody,
  wholeStoredBody,
} from "../../src/storage/calls/receipt-envelope.js";

const q = JSON.stringify;

/** Strings of every kind: ASCII, full unicode, quotes, escapes, control characters, lone surrogates. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom("", '"', "\\", "\u0000", "\n", "é", "中文", "🚀", "\ud800", "\udc00x", "</script>"),
);

const columns: fc.Arbitrary<EnvelopeColumns> = fc.record({
  executor_id: anyText,
  claim_id: anyText,
  receipt_id: anyText,
  kind: fc.oneof(fc.constantFrom("accepted", "progress", "completed", "failed"), anyText),
});

/** Grant texts: 32 bytes as base64url, and ones that must not be elided. */
const grantText = fc.oneof(
  {
    arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString("base64url")),
    weight: 4,
  },
  fc.uint8Array({ minLength: 0, maxLength: 48 }).map((bytes) => Buffer.from(bytes).toString("base64url")),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `${Buffer.from(bytes).toString("base64")}`),
  fc.string({ minLength: 43, maxLength: 43 }),
);

/** What follows an envelope: the usual members, or anything at all. */
const restText = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      "}",
      ',"progress":{"done":0.5}}',
      ',"result":{"a":1}}',
      " }",
      ',"kind":"x"}',
      "",
      "x",
      ",",
    ),
    weight: 2,
  },
  anyText.map((text) => `,${text}`),
  anyText,
);

/** Bodies in the runner's envelope order and in other shapes (member order, spacing, escapes). */
function bodies(c: EnvelopeColumns) {
  return fc.oneof(
    { arbitrary: fc.tuple(grantText, restText).map(([g, rest]) => `${envelopeHead(c, g)}${rest}`), weight: 4 },
    fc
      .tuple(grantText, restText)
      .map(
        ([g, rest]) =>
          `{"receipt_id":${q(c.receipt_id)},"executor_id":${q(c.executor_id)},"claim_id":${q(c.claim_id)},"grant":"${g}","kind":${q(c.kind)}${rest}`,
      ),
    fc
      .tuple(grantText, restText)
      .map(
        ([g, rest]) =>
          `{"executor_id": ${q(c.executor_id)},"claim_id":${q(c.claim_id)},"grant":"${g}","receipt_id":${q(c.receipt_id)},"kind":${q(c.kind)}${rest}`,
      ),
    fc.tuple(grantText, restText).map(([g, rest]) => `${envelopeHead(c, g).replace("é", "\\u00e9")}${rest}`),
    anyText,
  );
}

function envelopeHead(c: EnvelopeColumns, grant: string): string {
  return `{"executor_id":${q(c.executor_id)},"claim_id":${q(c.claim_id)},"grant":"${grant}","receipt_id":${q(c.receipt_id)},"kind":${q(c.kind)}`;
}

const withBody = columns.chain((c) => bodies(c).map((body) => ({ c, body })));

describe("receipt envelopes", () => {
  it("every body reads back exactly; an elided one had exactly the rebuilt envelope in front", () => {
    fc.assert(
      fc.property(withBody, ({ c, body }) => {
        const elided = elideEnvelope(body, c);
        const text = elided?.rest ?? body;
        const grant = elided?.grant ?? null;
        expect(restoreEnvelope(text, grant, c)).toBe(body);
        if (elided !== undefined) {
          // 32 bytes: the first order; 33, the first byte 1: the runners' order.
          if (body.startsWith('{"receipt_id"') && grant?.length === 33) expect(grant?.[0]).toBe(1);
          else expect(grant).toHaveLength(32);
          expect(body).toBe(envelopeText(c, elided.grant) + elided.rest);
          expect([",", "}"]).toContain(elided.rest[0]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("elides the usual envelope, only followed by `,` or `}` and only with a 32-byte grant that round-trips", () => {
    const c = { executor_id: "bench-scale-e8d97315", claim_id: "clm_01", receipt_id: "p", kind: "progress" };
    const grant = randomBytes(32);
    const g = grant.toString("base64url");
    const body = `${envelopeHead(c, g)},"progress":{"done":0.5}}`;
    expect(elideEnvelope(body, c)).toEqual({ rest: ',"progress":{"done":0.5}}', grant });
    expect(elideEnvelope(`${envelopeHead(c, g)}}`, c)?.rest).toBe("}");
    expect(elideEnvelope(`${envelopeHead(c, g)} }`, c)).toBeUndefined();
    expect(elideEnvelope(`${envelopeHead(c, g)}`, c)).toBeUndefined();
    // The column values must be the body's own.
    expect(elideEnvelope(body, { ...c, kind: "completed" })).toBeUndefined();
    expect(elideEnvelope(body, { ...c, receipt_id: "q" })).toBeUndefined();
    // Grants of other lengths, padded, standard base64, or whose last character does not round-trip.
    expect(elideEnvelope(`${envelopeHead(c, g.slice(1))}}`, c)).toBeUndefined();
    expect(elideEnvelope(`${envelopeHead(c, `${g}A`)}}`, c)).toBeUndefined();
    expect(elideEnvelope(`${envelopeHead(c, `${g}=`)}}`, c)).toBeUndefined();
    const notCanonical = `${g.slice(0, 42)}${g[42] === "B" ? "C" : "B"}`;
    expect(Buffer.from(notCanonical, "base64url").toString("base64url")).not.toBe(notCanonical);
    expect(elideEnvelope(`${envelopeHead(c, notCanonical)}}`, c)).toBeUndefined();
    expect(elideEnvelope(`${envelopeHead(c, `${g.slice(0, 42)}+`)}}`, c)).toBeUndefined();
    // Values with a lone surrogate are not stored as they are: whole.
    const lone = { ...c, executor_id: "e\ud800" };
    expect(elideEnvelope(`${envelopeHead(lone, g)}}`, lone)).toBeUndefined();
  });

  it("elides the runners' order too (receipt_id first), its grant stored after a layout byte 1", () => {
    const c = { executor_id: "ex-1", claim_id: "clm_01", receipt_id: "r-1", kind: "completed" };
    const grant = randomBytes(32);
    const q = JSON.stringify;
    const envelope = `{"receipt_id":${q(c.receipt_id)},"executor_id":${q(c.executor_id)},"claim_id":${q(c.claim_id)},"grant":"${grant.toString("base64url")}","kind":${q(c.kind)}`;
    const body = `${envelope},"result":{"ok":true}}`;
    const elided = elideEnvelope(body, c);
    expect(elided).toEqual({ rest: ',"result":{"ok":true}}', grant: Buffer.concat([Buffer.from([1]), grant]) });
    expect(restoreEnvelope(elided?.rest ?? "", elided?.grant ?? null, c)).toBe(body);
    expect(() => envelopeText(c, Buffer.concat([Buffer.from([2]), grant]))).toThrow(/layout/);
  });

  it("with a result reference, result_at is into the stored text and the body reads back exactly", () => {
    const cases = withBody.chain(({ c, body }) =>
      fc
        .tuple(fc.nat(body.length), fc.nat(body.length))
        .map(([a, b]) => ({ c, body, at: Math.min(a, b), length: Math.abs(a - b) })),
    );
    fc.assert(
      fc.property(cases, ({ c, body, at, length }) => {
        const stored = storedBody(body, c, { at, length });
        const resultText = body.slice(at, at + length);
        expect(stored.result_at).not.toBeNull();
        const resultAt = stored.result_at ?? 0;
        expect(wholeStoredBody(stored.body_text, stored.body_grant, c, { at: resultAt, text: resultText })).toBe(body);
        expect(stored.body_text.length).toBe(
          body.length - length - (stored.body_grant === null ? 0 : envelopeText(c, stored.body_grant).length),
        );
        const plain = storedBody(body, c);
        expect(plain.result_at).toBeNull();
        expect(wholeStoredBody(plain.body_text, plain.body_grant, c)).toBe(body);
      }),
      { numRuns: 3000 },
    );
  });

  it("a result found inside the envelope keeps the envelope in the body", () => {
    const c = { executor_id: "x".repeat(80), claim_id: "clm", receipt_id: "done", kind: "completed" };
    const g = randomBytes(32).toString("base64url");
    const result = q(c.executor_id);
    const body = `${envelopeHead(c, g)},"result":${result}}`;
    const at = body.indexOf(result);
    expect(at).toBe('{"executor_id":'.length);
    const stored = storedBody(body, c, { at, length: result.length });
    expect(stored.body_grant).toBeNull();
    expect(stored.result_at).toBe(at);
    expect(wholeStoredBody(stored.body_text, null, c, { at, text: result })).toBe(body);
    // Found after it: both cut.
    const later = body.lastIndexOf(result);
    const both = storedBody(body, c, { at: later, length: result.length });
    expect(both.body_grant).not.toBeNull();
    expect(both.body_text).toBe(',"result":}');
    expect(both.result_at).toBe(',"result":'.length);
  });
});
