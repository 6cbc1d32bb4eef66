/**
 * `/v1/keys` (scope `admin`): create, list and revoke API keys. The secret is shown once, in the
 * 201 answer; lists never show a secret or a hash. Revoking is immediate and idempotent, and a key may
 * revoke itself (rotation: create the new key, then revoke the old one with itself).
 */

import { CreatedKey, CreateKeyRequest, KeyIdParams, KeyList, PageQuery, RevokedKey } from "@toolhost/protocol/wire";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import { isoTime } from "../http/wire-time.js";
import { createKey, keyInfoOf } from "./create-key.js";
import { notFoundError } from "./id-scope.js";

/** Registers the key routes. */
export const keyRoutes: RouteModule = (app, { storage, clock, requireScope }) => {
  app.post(
    "/v1/keys",
    {
      onRequest: requireScope("admin"),
      schema: {
        tags: ["keys"],
        summary: "Create an API key",
        description:
          'Answers the secret once; store it, it cannot be shown again. `agents` and `bindings` default to `"*"`.',
        body: CreateKeyRequest,
        response: { 201: CreatedKey, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => reply.code(201).send(await createKey(storage.keys, request.body, clock)),
  );

  app.get(
    "/v1/keys",
    {
      onRequest: requireScope("admin"),
      schema: {
        tags: ["keys"],
        summary: "List API keys",
        description: "Keys in creation order, revoked ones included; never a secret or a hash.",
        querystring: PageQuery,
        response: { 200: KeyList, ...ERROR_RESPONSES },
      },
    },
    async (request) => wirePage(await storage.keys.list(pageRequestOf(request.query)), keyInfoOf),
  );

  app.delete(
    "/v1/keys/:key_id",
    {
      onRequest: requireScope("admin"),
      schema: {
        tags: ["keys"],
        summary: "Revoke an API key",
        description: "Takes effect on the next request. Revoking again answers the first revocation time.",
        params: KeyIdParams,
        response: { 200: RevokedKey, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { key_id } = request.params;
      await storage.keys.revoke(key_id, clock.nowMs());
      const key = await storage.keys.get(key_id);
      if (key === undefined || key.revoked_at_ms === null) throw notFoundError("key", key_id);
      return { key_id, revoked: true as const, revoked_at: isoTime(key.revoked_at_ms) };
    },
  );
};
