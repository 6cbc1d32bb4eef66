/**
 * The mark of a hook that admits callers by scope (made by `auth/require-scope.ts`, whose type the
 * route modules name as `RequireScope`), so the route guard can tell a protected route from an unprotected one and the OpenAPI document can list its scopes.
 */

import type { onRequestAsyncHookHandler } from "fastify";
import type { Scope } from "../storage/records.js";

/** An `onRequest` hook that authenticates the caller and checks its scope. */
export type ScopeHook = onRequestAsyncHookHandler;

/** Makes a hook admitting callers holding any one of `scopes` (`admin` satisfies every scope); 401/403 otherwise. */
export type RequireScope = (...scopes: [Scope, ...Scope[]]) => ScopeHook;

/** The property a scope hook carries its scopes under. */
export const SCOPE_HOOK = Symbol("toolhost.scopeHook");

/** `hook`, marked as admitting callers that hold any one of `scopes`. */
export function markScopeHook(hook: ScopeHook, scopes: readonly string[]): ScopeHook {
  return Object.assign(hook, { [SCOPE_HOOK]: scopes });
}

/** True when `hook` was marked by `markScopeHook`. */
export function isScopeHook(hook: unknown): boolean {
  return typeof hook === "function" && SCOPE_HOOK in hook;
}
