/**
 * `/v1/executor-bindings`: register, list and read executor bindings (docs/configuration.md). Reads need
 * `configuration:read`, registering `configuration:write`. A binding outside the credential's binding
 * scope answers 404 like a missing one. The answer carries no connection metadata: online executors and
 * heartbeats belong to the executor protocol and are reported by the binding diagnostics.
 */

import { ProtocolError } from "@toolhost/protocol";
import { Binding, BindingIdParams, BindingList, CreateBindingRequest, PageQuery } from "@toolhost/protocol/wire";
import { bindingScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime } from "../http/wire-time.js";
import { newId } from "../ids.js";
import type { BindingRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";
import { assertMayCreateBinding } from "./creation-scope.js";

/** Prefix of server-made binding IDs. */
export const BINDING_ID_PREFIX = "bnd";

/** The wire form of a stored binding. */
export function bindingOf(binding: BindingRecord): Binding {
  return { binding_id: binding.binding_id, name: binding.name, created_at: isoTime(binding.created_at_ms) };
}

/** What `bindingRoutes` uses of the app's services. */
export interface BindingRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
}

/** Registers the executor-binding routes. */
export const bindingRoutes: RouteModule<BindingRoutesServices> = (app, { storage, clock, requireScope }) => {
  app.post(
    "/v1/executor-bindings",
    {
      config: { errorCodes: ["conflict"] },
      onRequest: requireScope("configuration:write"),
      schema: {
        operationId: "createBinding",
        tags: ["executor-bindings"],
        summary: "Register an executor binding",
        description:
          "Without `binding_id` the server makes a `bnd_…` ID. A taken ID is 409 `conflict`. A key whose binding scope is a list may only register IDs from that list (403 otherwise).",
        body: CreateBindingRequest,
        response: { 201: Binding, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      assertMayCreateBinding(identity, request.body.binding_id);
      const now = clock.nowMs();
      const binding: BindingRecord = {
        binding_id: request.body.binding_id ?? newId(BINDING_ID_PREFIX, now),
        name: request.body.name,
        created_at_ms: now,
      };
      if (!(await storage.bindings.insert(binding))) {
        throw new ProtocolError(
          "conflict",
          `executor binding ${JSON.stringify(binding.binding_id)} already exists`,
          "/binding_id",
          { binding_id: binding.binding_id },
        );
      }
      return reply.code(201).send(bindingOf(binding));
    },
  );

  app.get(
    "/v1/executor-bindings",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "listBindings",
        tags: ["executor-bindings"],
        summary: "List executor bindings",
        description: "Bindings in the credential's binding scope, in creation order.",
        querystring: PageQuery,
        response: { 200: BindingList, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      wirePage(
        await storage.bindings.list(pageRequestOf(request.query), bindingScopeOf(identityOf(request))),
        bindingOf,
      ),
  );

  app.get(
    "/v1/executor-bindings/:binding_id",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "getBinding",
        tags: ["executor-bindings"],
        summary: "Read an executor binding",
        description: "404 when it does not exist or lies outside the credential's binding scope.",
        params: BindingIdParams,
        response: { 200: Binding, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { binding_id } = request.params;
      const binding = await storage.bindings.get(binding_id, bindingScopeOf(identityOf(request)));
      if (binding === undefined) throw notFoundError("executor binding", binding_id);
      return bindingOf(binding);
    },
  );
};
