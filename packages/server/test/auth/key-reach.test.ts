// The reach rules (pure, fast-check): a created key never grants more than its creator (scopes,
// agents, bindings and model connections alike), omitted ID scopes become the creator's, every request inside the creator's reach is granted as asked, and a
// creator always reaches (lists, revokes) the keys it made.
import { isProtocolError } from "@toolhost/protocol";
import type { CreateKeyRequest } from "@toolhost/protocol/wire";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decideNewKeyScopes,
  idScopeWithin,
  type KeyReach,
  keyWithinReach,
  OPERATOR_REACH,
  scopeGranted,
} from "../../src/auth/key-reach.js";
import { type IdScope, SCOPES, type Scope } from "../../src/storage/records.js";

const ID = fc.constantFrom("a", "b", "c", "d");
const ID_SCOPE: fc.Arbitrary<IdScope> = fc.oneof(fc.constant("*" as const), fc.uniqueArray(ID, { maxLength: 4 }));
const SCOPE_LIST = fc.uniqueArray(fc.constantFrom(...(Object.values(SCOPES) as Scope[])), {
  minLength: 1,
  maxLength: 4,
});
const REACH: fc.Arbitrary<KeyReach> = fc.record({
  scopes: SCOPE_LIST,
  agents: ID_SCOPE,
  bindings: ID_SCOPE,
  connections: ID_SCOPE,
});
const REQUEST: fc.Arbitrary<CreateKeyRequest> = fc.record(
  { name: fc.constant("k"), scopes: SCOPE_LIST, agents: ID_SCOPE, bindings: ID_SCOPE, connections: ID_SCOPE },
  { requiredKeys: ["name", "scopes"] },
);

/** True when `request` asks for nothing beyond `creator`. */
function requestWithin(creator: KeyReach, request: CreateKeyRequest): boolean {
  return (
    request.scopes.every((scope) => scopeGranted(creator.scopes, scope as Scope)) &&
    idScopeWithin(request.agents ?? creator.agents, creator.agents) &&
    idScopeWithin(request.bindings ?? creator.bindings, creator.bindings) &&
    idScopeWithin(request.connections ?? creator.connections, creator.connections)
  );
}

describe("key reach", () => {
  it("idScopeWithin: '*' lies only within '*'; a list within '*' or a superset", () => {
    expect(idScopeWithin("*", "*")).toBe(true);
    expect(idScopeWithin("*", ["a", "b", "c", "d"])).toBe(false);
    expect(idScopeWithin(["a"], "*")).toBe(true);
    expect(idScopeWithin([], [])).toBe(true);
    expect(idScopeWithin(["a", "b"], ["b", "c", "a"])).toBe(true);
    expect(idScopeWithin(["a", "d"], ["a", "b"])).toBe(false);
    fc.assert(
      fc.property(ID_SCOPE, ID_SCOPE, ID_SCOPE, (x, y, z) => {
        expect(idScopeWithin(x, x)).toBe(true);
        if (idScopeWithin(x, y) && idScopeWithin(y, z)) expect(idScopeWithin(x, z)).toBe(true);
      }),
      { seed: 3 },
    );
  });

  it("a created key never reaches beyond its creator, and its creator reaches it", () => {
    fc.assert(
      fc.property(REACH, REQUEST, (creator, request) => {
        let made: ReturnType<typeof decideNewKeyScopes>;
        try {
          made = decideNewKeyScopes(creator, request);
        } catch (error) {
          expect(isProtocolError(error) && error.code === "forbidden" && error.status === 403).toBe(true);
          expect(requestWithin(creator, request)).toBe(false);
          return;
        }
        expect(requestWithin(creator, request)).toBe(true);
        for (const scope of made.scopes) expect(scopeGranted(creator.scopes, scope)).toBe(true);
        expect(idScopeWithin(made.agents, creator.agents)).toBe(true);
        expect(idScopeWithin(made.bindings, creator.bindings)).toBe(true);
        expect(idScopeWithin(made.connections, creator.connections)).toBe(true);
        expect(keyWithinReach(made, creator)).toBe(true);
        // Granted exactly as asked; omitted ID scopes are the creator's.
        expect(made.scopes).toEqual(request.scopes);
        expect(made.agents).toEqual(request.agents ?? creator.agents);
        expect(made.bindings).toEqual(request.bindings ?? creator.bindings);
        expect(made.connections).toEqual(request.connections ?? creator.connections);
      }),
      { numRuns: 2_000, seed: 7 },
    );
  });

  it("the operator (toolhost keys) may make any key; an omitted scope is '*' for it", () => {
    fc.assert(
      fc.property(REQUEST, (request) => {
        const made = decideNewKeyScopes(OPERATOR_REACH, request);
        expect(made.agents).toEqual(request.agents ?? "*");
        expect(made.bindings).toEqual(request.bindings ?? "*");
        expect(made.connections).toEqual(request.connections ?? "*");
      }),
      { seed: 11 },
    );
  });

  it("names the first member beyond the creator in the 403's pointer", () => {
    const creator: KeyReach = {
      scopes: ["runtime:read", "configuration:read"],
      agents: ["a"],
      bindings: "*",
      connections: ["eu"],
    };
    const refusal = (request: Partial<CreateKeyRequest>) => {
      try {
        decideNewKeyScopes(creator, { name: "k", scopes: ["runtime:read"], ...request });
      } catch (error) {
        return isProtocolError(error) ? [error.code, error.pointer] : ["not a protocol error"];
      }
      return ["granted"];
    };
    expect(refusal({ scopes: ["runtime:read", "admin"] })).toEqual(["forbidden", "/scopes/1"]);
    expect(refusal({ scopes: ["runtime:write"] })).toEqual(["forbidden", "/scopes/0"]);
    expect(refusal({ agents: "*" })).toEqual(["forbidden", "/agents"]);
    expect(refusal({ agents: ["a", "b"] })).toEqual(["forbidden", "/agents/1"]);
    expect(refusal({ bindings: "*", agents: [] })).toEqual(["granted"]);
    expect(refusal({ connections: "*" })).toEqual(["forbidden", "/connections"]);
    expect(refusal({ connections: ["eu", "us"] })).toEqual(["forbidden", "/connections/1"]);
    expect(refusal({ connections: [] })).toEqual(["granted"]);
    // An admin grants every scope, admin included.
    expect(
      decideNewKeyScopes({ ...creator, scopes: ["admin"] }, { name: "k", scopes: ["admin", "tools:execute"] }),
    ).toEqual({
      scopes: ["admin", "tools:execute"],
      agents: ["a"],
      bindings: "*",
      connections: ["eu"],
    });
  });
});
