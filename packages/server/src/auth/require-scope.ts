/** The `onRequest` hooks that admit a caller by scope: 401 without a valid key, 403 without the scope. */

import { ProtocolError } from "@toolhost/protocol";
import type { FastifyRequest } from "fastify";
import { markScopeHook, type RequireScope, type ScopeHook } from "../http/scope-hook.js";
import type { KeyStore } from "../storage/storage.js";
import { authenticate } from "./authenticate.js";
import { hasAnyScope, type Identity } from "./identity.js";
import type { IdentityCache } from "./identity-cache.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Who sent the request, once a `requireScope` hook authenticated it; null on public routes. */
    identity: Identity | null;
  }
}

/**
 * Makes `requireScope(...scopes)`: a hook admitting callers that hold any one of `scopes`, their keys
 * found through `cache` when given.
 */
export function createRequireScope(keys: KeyStore, cache?: IdentityCache): RequireScope {
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
    return markScopeHook(hook, scopes);
  };
}

/** The identity a `requireScope` hook admitted; throws when the route has no such hook (a bug). */
export function identityOf(request: FastifyRequest): Identity {
  if (request.identity === null)
    throw new Error(`route ${request.routeOptions.url} reads an identity it never required`);
  return request.identity;
}
