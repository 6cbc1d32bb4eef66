/**
 * Who may create agents and bindings (pure). A credential sees only the agents and bindings in its
 * scopes, so it may create only what it will then see: a key whose agent scope is a list cannot
 * create agents (their IDs are made by the server, so the new agent would lie outside its list), and
 * a key whose binding scope is a list may create only bindings it names from that list. That also
 * keeps the 409 of a taken binding ID from revealing anything outside the caller's scope.
 */

import { ProtocolError } from "@toolhost/protocol";
import { inBindingScope } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";

/** Throws 403 `forbidden` unless the caller's agent scope is `"*"`. */
export function assertMayCreateAgents(identity: Identity): void {
  if (identity.agents !== "*") {
    throw new ProtocolError(
      "forbidden",
      'creating agents needs an agent scope of "*": a new agent would lie outside this key\'s agent list',
      undefined,
      { required_agent_scope: "*" },
    );
  }
}

/** Throws 403 `forbidden` unless the caller may create a binding with `bindingId` (absent: a new ID). */
export function assertMayCreateBinding(identity: Identity, bindingId: string | undefined): void {
  if (identity.bindings === "*") return;
  if (bindingId === undefined) {
    throw new ProtocolError(
      "forbidden",
      "this key's binding scope is a list: name the new binding's binding_id from that list",
      "/binding_id",
    );
  }
  if (!inBindingScope(identity, bindingId)) {
    throw new ProtocolError("forbidden", "binding_id lies outside this key's binding scope", "/binding_id");
  }
}
