/** Who sent a request: the authenticated API key's scopes and its agent, binding and model connection scopes. */

import type { IdScope, KeyRecord, Scope } from "../storage/records.js";
import { scopeGranted } from "./key-reach.js";

/** The caller of an authenticated request. */
export interface Identity {
  readonly keyId: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** The agents whose objects the caller reaches. */
  readonly agents: IdScope;
  /** The executor bindings whose objects the caller reaches. */
  readonly bindings: IdScope;
  /** The model connections the caller's agent versions may name. */
  readonly connections: IdScope;
}

/** The identity an active key grants. */
export function identityOfKey(key: KeyRecord): Identity {
  return {
    keyId: key.key_id,
    name: key.name,
    scopes: key.scopes,
    agents: key.agents,
    bindings: key.bindings,
    connections: key.connections,
  };
}

/** True when the identity holds `scope`; `admin` satisfies every scope. */
export function hasScope(identity: Identity, scope: Scope): boolean {
  return scopeGranted(identity.scopes, scope);
}

/** True when the identity holds at least one of `scopes`. */
export function hasAnyScope(identity: Identity, scopes: readonly Scope[]): boolean {
  return scopes.some((scope) => hasScope(identity, scope));
}
