// Grants on their own: the signed input names every field unambiguously, so no choice of IDs makes
// one claim's grant another's; a claim replay re-issues only the grant the row holds the hash of.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type GrantSubject,
  grantHash,
  grantInput,
  legacyGrant,
  reissuedGrant,
  secretsEqual,
  signGrant,
} from "../../src/calls/grant.js";

const KEY = Buffer.alloc(32, 7);

/** IDs as an attacker may choose them (executor IDs may hold `:`; receipts name any claim ID). */
const id = fc.oneof(fc.constantFrom("a", "a:b", ":", "", "clm_1", "call_2", '"', "\\", "[", ","), fc.string());
const subject: fc.Arbitrary<GrantSubject> = fc.record({ claimId: id, callId: id, executorId: id, keyId: id });

describe("grants", () => {
  it("secretsEqual is string equality, whatever the texts and their lengths", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
        expect(secretsEqual(a, b)).toBe(a === b);
        expect(secretsEqual(a, a)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
    const grant = signGrant(KEY, { claimId: "c", callId: "k", executorId: "e", keyId: "x" });
    expect(secretsEqual(grant, grant.slice(0, -1))).toBe(false);
    // Lone surrogates, which UTF-8 would turn into one and the same replacement character.
    expect(secretsEqual("\ud800", "\udfff")).toBe(false);
    expect(secretsEqual(grantHash(grant), grantHash(grant))).toBe(true);
  });

  it("the signed input is injective: two subjects have one input only when every field is equal", () => {
    fc.assert(
      fc.property(subject, subject, (a, b) => {
        const same = a.claimId === b.claimId && a.callId === b.callId && a.executorId === b.executorId;
        expect(grantInput(a) === grantInput(b)).toBe(same && a.keyId === b.keyId);
        if (!same || a.keyId !== b.keyId) expect(signGrant(KEY, a)).not.toBe(signGrant(KEY, b));
      }),
      { numRuns: 2_000 },
    );
  });

  it("shifting a ':' between fields makes another grant (the legacy text did not)", () => {
    const issued = { claimId: "clm_1", callId: "call_1", executorId: "call_2:x", keyId: "key_1" };
    const shifted = { claimId: "clm_1:call_1", callId: "call_2", executorId: "x", keyId: "key_1" };
    expect(signGrant(KEY, shifted)).not.toBe(signGrant(KEY, issued));
    // The flaw the JSON array removes: the old input was the same text for both.
    expect(legacyGrant(KEY, shifted.claimId, shifted.callId, shifted.executorId)).toBe(
      legacyGrant(KEY, issued.claimId, issued.callId, issued.executorId),
    );
  });

  it("binds the key: the same claim, call and executor with another key is another grant", () => {
    const mine = { claimId: "clm_1", callId: "call_1", executorId: "e1", keyId: "key_1" };
    expect(signGrant(KEY, { ...mine, keyId: "key_2" })).not.toBe(signGrant(KEY, mine));
    expect(signGrant(Buffer.alloc(32, 8), mine)).not.toBe(signGrant(KEY, mine));
    expect(signGrant(KEY, mine)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a claim replay re-issues the stored grant to its key, a pre-upgrade grant as it was, nothing else", () => {
    const mine = { claimId: "clm_1", callId: "call_1", executorId: "e1", keyId: "key_1" };
    const current = signGrant(KEY, mine);
    const legacy = legacyGrant(KEY, "clm_1", "call_1", "e1");
    expect(reissuedGrant(KEY, mine, grantHash(current))).toBe(current);
    expect(reissuedGrant(KEY, mine, grantHash(legacy))).toBe(legacy);
    // Made with another key (the executor reconnected with a new one since), or nothing stored.
    expect(reissuedGrant(KEY, { ...mine, keyId: "key_2" }, grantHash(current))).toBeUndefined();
    expect(reissuedGrant(KEY, mine, null)).toBeUndefined();
    expect(reissuedGrant(KEY, mine, grantHash("made up"))).toBeUndefined();
  });
});
