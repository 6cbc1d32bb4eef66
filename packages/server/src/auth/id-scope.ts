/**
 * Agent and binding scopes of a credential. An object outside the caller's scope is answered exactly
 * like a missing one (404 `not_found`, same message), so a credential never learns what exists
 * beyond its scope. Stores take the scope too (`agentScopeOf`, `bindingScopeOf`) and filter in SQL.
 * These scopes are orthogonal to the `admin` scope: an admin key limited to some agents sees only those.
 */

import { ProtocolError } from "@toolhost/protocol";
import type { IdScope } from "../storage/records.js";
import type { Identity } from "./identity.js";

/** True when `id` lies in `scope`. */
export function inIdScope(scope: IdScope, id: string): boolean {
  return scope === "*" || scope.includes(id);
}

/** True when the caller's agent scope holds `agentId`. */
export function inAgentScope(identity: Identity, agentId: string): boolean {
  return inIdScope(identity.agents, agentId);
}

/** True when the caller's binding scope holds `bindingId`. */
export function inBindingScope(identity: Identity, bindingId: string): boolean {
  return inIdScope(identity.bindings, bindingId);
}

/** The agent scope to pass to stores. */
export function agentScopeOf(identity: Identity): IdScope {
  return identity.agents;
}

/** The binding scope to pass to stores. */
export function bindingScopeOf(identity: Identity): IdScope {
  return identity.bindings;
}

/** The one answer for a missing object and for an object outside the caller's scope. */
export function notFoundError(kind: string, id: string): ProtocolError {
  return new ProtocolError("not_found", `${kind} ${JSON.stringify(id)} not found`);
}

/** Throws `notFoundError` unless the caller's agent scope holds `agentId`. */
export function assertAgentInScope(identity: Identity, agentId: string, kind = "agent"): void {
  if (!inAgentScope(identity, agentId)) throw notFoundError(kind, agentId);
}

/** Throws `notFoundError` unless the caller's binding scope holds `bindingId`. */
export function assertBindingInScope(identity: Identity, bindingId: string, kind = "executor binding"): void {
  if (!inBindingScope(identity, bindingId)) throw notFoundError(kind, bindingId);
}
