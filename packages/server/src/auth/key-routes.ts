/**
 * `/v1/keys` (scope `admin`): create, list and revoke API keys. The secret is shown once, in the
 * 201 answer; lists never show a secret or a hash. Revoking is immediate and idempotent, and a key may
 * revoke itself (rotation: create the new key, then revoke the old one with itself).
 *
 * Every route stays within the caller's reach (`key-reach.ts`): a new key grants no more than the
 * caller (403 otherwise), and only keys whose agents and bindings lie within the caller's are listed
 * or revoked — others answer 404, like missing ones.
 */

import { CreatedKey, CreateKeyRequest, KeyIdParams, KeyList, PageQuery, RevokedKey } from "@toolhost/protocol/wire";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime } from "../http/wire-time.js";
import type { Storage } from "../storage/storage.js";
import { createKey, keyInfoOf } from "./create-key.js";
import { notFoundError } from "./id-scope.js";
import { identityOf } from "./require-scope.js";

/** What `keyRoutes` uses of the app's services. */
export interface KeyRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
  readonly keyRevoked: (keyId: string) => Promise<void>;
}

/** Registers the key routes. */
export const keyRoutes: RouteModule<KeyRoutesServices> = (app, { storage, clock, requireScope, keyRevoked }) => {
  app.post(
    "/v1/keys",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("admin"),
      schema: {
        operationId: "createKey",
        tags: ["keys"],
        summary: "Create an API key",
        description:
          'Answers the secret once; store it, it cannot be shown again. The new key grants no more than the calling key: its scopes, agents and bindings must lie within the caller\'s (403 `forbidden` at the first member beyond; `"*"` only from a key holding `"*"`). Omitted `agents` and `bindings` are the caller\'s own.',
        body: CreateKeyRequest,
        response: { 201: CreatedKey, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createKey(storage.keys, request.body, identityOf(request), clock)),
  );

  app.get(
    "/v1/keys",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("admin"),
      schema: {
        operationId: "listKeys",
        tags: ["keys"],
        summary: "List API keys",
        description:
          "Keys whose agents and bindings lie within the caller's, in creation order, revoked ones included; never a secret or a hash.",
        querystring: PageQuery,
        response: { 200: KeyList, ...ERROR_RESPONSES },
      },
    },
    async (request) => wirePage(await storage.keys.list(pageRequestOf(request.query), identityOf(request)), keyInfoOf),
  );

  app.delete(
    "/v1/keys/:key_id",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("admin"),
      schema: {
        operationId: "revokeKey",
        tags: ["keys"],
        summary: "Revoke an API key",
        description:
          "Takes effect on the next request. Revoking again answers the first revocation time. 404 when the key does not exist or its agents or bindings reach beyond the caller's.",
        params: KeyIdParams,
        response: { 200: RevokedKey, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { key_id } = request.params;
      const key = await storage.keys.revoke(key_id, clock.nowMs(), identityOf(request));
      if (key === undefined || key.revoked_at_ms === null) throw notFoundError("key", key_id);
      // Again on a repeated revoke, so a retry after a failed announcement reaches every instance.
      await keyRevoked(key_id);
      return { key_id, revoked: true as const, revoked_at: isoTime(key.revoked_at_ms) };
    },
  );
};
