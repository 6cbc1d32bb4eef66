/**
 * What a key may do with other keys (pure). A key's **reach** is its scopes, agents, bindings and
 * model connections: it may create only keys inside its reach, and it lists and revokes only keys
 * whose agents, bindings and connections lie inside its own (see docs/http-api.md#credentials).
 * Without these rules an admin narrowed to one tenant could mint an unrestricted admin key, revoke
 * another tenant's keys, or run its agents on another tenant's model connection.
 *
 * An ID scope lies within another when every ID it reaches the other reaches too: `"*"` lies only
 * within `"*"` (it also reaches IDs made later), a list within `"*"` or within a list holding every
 * one of its IDs.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { CreateKeyRequest } from "@toolhost/protocol/wire";
import { type IdScope, type IdScopes, SCOPES, type Scope } from "../storage/records.js";

/** Scopes, agents, bindings and connections: what a key grants, and so the most a key it creates may grant. */
export interface KeyReach extends IdScopes {
  readonly scopes: readonly Scope[];
}

/**
 * The reach of the operator: `toolhost keys` works straight on the database, so whoever runs it owns
 * the installation and may make any key (like the bootstrap key).
 */
export const OPERATOR_REACH: KeyReach = Object.freeze({
  scopes: Object.freeze(Object.values(SCOPES)) as readonly Scope[],
  agents: "*",
  bindings: "*",
  connections: "*",
});

/** True when every ID `inner` reaches, `outer` reaches too. */
export function idScopeWithin(inner: IdScope, outer: IdScope): boolean {
  if (outer === "*") return true;
  if (inner === "*") return false;
  return inner.every((id) => outer.includes(id));
}

/** True when `scope` is granted by `scopes` (`admin` grants every scope, itself included). */
export function scopeGranted(scopes: readonly Scope[], scope: Scope): boolean {
  return scopes.includes("admin") || scopes.includes(scope);
}

/** True when `key`'s agents, bindings and connections lie within `reach`'s: the keys a caller lists and revokes. */
export function keyWithinReach(key: IdScopes, reach: IdScopes): boolean {
  return (
    idScopeWithin(key.agents, reach.agents) &&
    idScopeWithin(key.bindings, reach.bindings) &&
    idScopeWithin(key.connections, reach.connections)
  );
}

/** The scopes, agents, bindings and connections of a key to create. */
export interface NewKeyScopes {
  readonly scopes: Scope[];
  readonly agents: IdScope;
  readonly bindings: IdScope;
  readonly connections: IdScope;
}

/** The ID scopes of a key, each checked against the creator's the same way. */
type IdScopeMember = "agents" | "bindings" | "connections";

/** How messages name one ID of each ID scope. */
const ID_KIND: Readonly<Record<IdScopeMember, string>> = {
  agents: "agent",
  bindings: "binding",
  connections: "model connection",
};

/**
 * What a key created by `creator` for `request` grants: omitted `agents`/`bindings`/`connections` become the
 * creator's own. Throws 403 `forbidden`, pointing at the first member beyond the creator's reach.
 */
export function decideNewKeyScopes(creator: KeyReach, request: CreateKeyRequest): NewKeyScopes {
  const scopes = request.scopes as Scope[];
  const beyond = scopes.findIndex((scope) => !scopeGranted(creator.scopes, scope));
  if (beyond >= 0) {
    throw new ProtocolError(
      "forbidden",
      `scope ${JSON.stringify(scopes[beyond])} lies beyond this key's scopes: a key cannot grant more than it holds`,
      `/scopes/${beyond}`,
      { scope: scopes[beyond] },
    );
  }
  return {
    scopes,
    agents: idScopeWithinCreator("agents", request.agents, creator.agents),
    bindings: idScopeWithinCreator("bindings", request.bindings, creator.bindings),
    connections: idScopeWithinCreator("connections", request.connections, creator.connections),
  };
}

/** The requested ID scope (default: the creator's), refused when it reaches beyond the creator's. */
function idScopeWithinCreator(member: IdScopeMember, requested: IdScope | undefined, creator: IdScope): IdScope {
  if (requested === undefined) return creator === "*" ? "*" : [...creator];
  if (idScopeWithin(requested, creator)) return requested === "*" ? "*" : [...requested];
  const kind = ID_KIND[member];
  if (requested === "*") {
    throw new ProtocolError(
      "forbidden",
      `${member} "*" lies beyond this key's ${kind} scope: only a key whose ${member} are "*" may grant "*"`,
      `/${member}`,
    );
  }
  const index = requested.findIndex((id) => !creator.includes(id));
  throw new ProtocolError(
    "forbidden",
    `${kind} ${JSON.stringify(requested[index])} lies beyond this key's ${kind} scope`,
    `/${member}/${index}`,
  );
}
