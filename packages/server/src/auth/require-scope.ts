/** The `onRequest` hooks that admit a caller by scope: 401 without a valid key, 403 without the scope. */

import { ProtocolError } from "@toolhost/protocol";
import type { FastifyRequest } from "fastify";
import type { ScopeHook } from "../http/app.js";
import type { Scope } from "../storage/records.js";
import type { KeyStore } from "../storage/storage.js";
import { authenticate } from "./authenticate.js";
import { hasAnyScope, type Identity } from "./identity.js";
import type { IdentityCache } from "./identity-cache.js";

/** Marks the hooks made here, so the route guard can tell a protected route from an unprotected one. */
export const SCOPE_HOOK = Symbol("toolhost.scopeHook");

/**
 * Makes `requireScope(...scopes)`: a hook admitting callers that hold any one of `scopes`, their keys
 * found through `cache` when given.
 */
export function createRequireScope(
  keys: KeyStore,
  cache?: IdentityCache,
): (...scopes: [Scope, ...Scope[]]) => ScopeHook {
  return (...scopes) => {
    const hook: ScopeHook = async (request) => {
      const identity = await authenticate(request.headers.authorization, keys, cache);
      request.identity = identity;
      if (!hasAnyScope(identity, scopes)) {
        throw new ProtocolError("forbidden", `this operation needs the scope ${scopes.join(" or ")}`, undefined, {
          required_scopes: scopes,
        });
      }
    };
    return Object.assign(hook, { [SCOPE_HOOK]: scopes });
  };
}

/** True when `hook` was made by `requireScope`. */
export function isScopeHook(hook: unknown): boolean {
  return typeof hook === "function" && SCOPE_HOOK in hook;
}

/** The identity a `requireScope` hook admitted; throws when the route has no such hook (a bug). */
export function identityOf(request: FastifyRequest): Identity {
  if (request.identity === null)
    throw new Error(`route ${request.routeOptions.url} reads an identity it never required`);
  return request.identity;
}
