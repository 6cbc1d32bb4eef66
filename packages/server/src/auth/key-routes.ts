/**
 * `/v1/keys` (scope `admin`): create, list and revoke API keys. The secret is shown once, in the
 * 201 answer; lists never show a secret or a hash. Revoking is immediate and idempotent, and a key may
 * revoke itself (rotation: create the new key, then revoke the old one with itself).
 */

import {
  CreatedKey,
  CreateKeyRequest,
  KeyIdParams,
  type KeyInfo,
  KeyList,
  PageQuery,
  RevokedKey,
} from "@toolhost/protocol/wire";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import { isoTime, isoTimeOrNull } from "../http/wire-time.js";
import { newId } from "../ids.js";
import type { KeyRecord } from "../storage/records.js";
import { notFoundError } from "./id-scope.js";
import { generateKeySecret, hashKeySecret } from "./key-secret.js";

/** The listed form of a stored key (no secret, no hash). */
export function keyInfoOf(key: KeyRecord): KeyInfo {
  return {
    key_id: key.key_id,
    name: key.name,
    scopes: key.scopes,
    agents: key.agents,
    bindings: key.bindings,
    created_at: isoTime(key.created_at_ms),
    revoked_at: isoTimeOrNull(key.revoked_at_ms),
  };
}

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
    async (request, reply) => {
      const secret = generateKeySecret();
      const now = clock.nowMs();
      const key: KeyRecord = {
        key_id: newId("key", now),
        name: request.body.name,
        key_hash: hashKeySecret(secret),
        scopes: request.body.scopes,
        agents: request.body.agents ?? "*",
        bindings: request.body.bindings ?? "*",
        created_at_ms: now,
        revoked_at_ms: null,
      };
      await storage.keys.insert(key);
      const { revoked_at: _revoked, ...info } = keyInfoOf(key);
      return reply.code(201).send({ ...info, key: secret });
    },
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
