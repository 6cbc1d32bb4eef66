/**
 * `/v1/toolsets`: publish toolsets and their immutable versions, and read them (docs/configuration.md). Reads need
 * `configuration:read`, publishing `configuration:write`. There is no route that changes or deletes a
 * version: changing a tool (its budget, say) means publishing a new version.
 *
 * `tools` is validated by the protocol's `validateToolset` before the body schema runs (see
 * `validate-member-first.ts`), so its codes reach the client; then every tool's `binding_id` must name
 * a registered binding in the credential's binding scope (422 `unknown_reference` otherwise).
 *
 * A toolset belongs to the bindings its versions reference: a key sees it, and may publish versions of
 * it, only when its binding scope holds every binding any version of it references (404 otherwise,
 * like a missing one). So a key of one tenant can neither read another tenant's tools nor publish a
 * version that moves them to its own binding. The stores filter in the SQL (`toolset_bindings`).
 */

import type { ToolDefinition } from "@toolhost/protocol";
import {
  CreatedToolset,
  CreateToolsetRequest,
  CreateToolsetVersionRequest,
  PageQuery,
  Toolset,
  ToolsetIdParams,
  ToolsetList,
  ToolsetVersion,
  ToolsetVersionList,
  ToolsetVersionParams,
} from "@toolhost/protocol/wire";
import { bindingScopeOf, notFoundError } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime } from "../http/wire-time.js";
import { newId } from "../ids.js";
import { readStoredTools } from "../storage/config/stored-tools.js";
import type { ToolsetRecord, ToolsetVersionRecord } from "../storage/records.js";
import type { BindingStore, Storage } from "../storage/storage.js";
import { assertToolBindingsRegistered } from "./tool-bindings.js";
import { validateMemberFirst } from "./validate-member-first.js";
import { validateToolsetYielding } from "./validate-toolset-yielding.js";

/** Prefix of server-made toolset IDs. */
export const TOOLSET_ID_PREFIX = "tls";

/** The wire form of a stored toolset. */
export function toolsetOf(toolset: ToolsetRecord): Toolset {
  return {
    toolset_id: toolset.toolset_id,
    name: toolset.name,
    latest_version: toolset.latest_version,
    created_at: isoTime(toolset.created_at_ms),
  };
}

/** The wire form of a stored toolset version. */
export function toolsetVersionOf(version: ToolsetVersionRecord): ToolsetVersion {
  return {
    toolset_id: version.toolset_id,
    version: version.version,
    tools: readStoredTools(version.tools_json),
    created_at: isoTime(version.created_at_ms),
  };
}

/** `validateToolset` on `tools`, before the body schema, yielding to the event loop between tools. */
const toolsFirst = validateMemberFirst("tools", validateToolsetYielding);

/** Throws unless every tool's binding is registered and visible to `identity`. */
async function checkBindings(tools: readonly ToolDefinition[], bindings: BindingStore, identity: Identity) {
  const visible = await bindings.existing(
    tools.map((tool) => tool.binding_id),
    bindingScopeOf(identity),
  );
  assertToolBindingsRegistered(tools, visible);
}

const TAGS = ["toolsets"];

/** What `toolsetRoutes` uses of the app's services. */
export interface ToolsetRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
}

/** Registers the toolset routes. */
export const toolsetRoutes: RouteModule<ToolsetRoutesServices> = (app, { storage, clock, requireScope }) => {
  app.post(
    "/v1/toolsets",
    {
      config: {
        errorCodes: [
          "invalid_budget",
          "field_removed",
          "invalid_schema",
          "schema_too_large",
          "duplicate_tool_name",
          "too_many_tools",
          "unknown_reference",
        ],
      },
      onRequest: requireScope("configuration:write"),
      preValidation: toolsFirst.preValidation,
      schema: {
        operationId: "createToolset",
        tags: TAGS,
        summary: "Create a toolset",
        description:
          "Creates the toolset with its version 1 and answers the tools with every default filled in. Each `binding_id` must be registered in the credential's binding scope (422 `unknown_reference`).",
        body: CreateToolsetRequest,
        response: { 201: CreatedToolset, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const tools = toolsFirst.resultOf(request);
      await checkBindings(tools, storage.bindings, identityOf(request));
      const now = clock.nowMs();
      const toolsetId = newId(TOOLSET_ID_PREFIX, now);
      const toolset: ToolsetRecord = {
        toolset_id: toolsetId,
        name: request.body.name,
        latest_version: 1,
        created_at_ms: now,
      };
      const first: ToolsetVersionRecord = {
        toolset_id: toolsetId,
        version: 1,
        tools_json: JSON.stringify(tools),
        created_at_ms: now,
      };
      await storage.toolsets.insert(toolset, first);
      return reply.code(201).send({ ...toolsetVersionOf(first), version: 1 as const, name: toolset.name });
    },
  );

  app.post(
    "/v1/toolsets/:toolset_id/versions",
    {
      config: {
        errorCodes: [
          "invalid_budget",
          "field_removed",
          "invalid_schema",
          "schema_too_large",
          "duplicate_tool_name",
          "too_many_tools",
          "unknown_reference",
          "conflict",
        ],
      },
      onRequest: requireScope("configuration:write"),
      preValidation: toolsFirst.preValidation,
      schema: {
        operationId: "publishToolsetVersion",
        tags: TAGS,
        summary: "Publish a toolset version",
        description:
          "Appends the next version (the highest number plus one). Earlier versions never change; agent versions keep the version they pinned. 404 unless the credential's binding scope holds every binding the toolset's versions reference.",
        params: ToolsetIdParams,
        body: CreateToolsetVersionRequest,
        response: { 201: ToolsetVersion, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { toolset_id } = request.params;
      const tools = toolsFirst.resultOf(request);
      const scope = bindingScopeOf(identityOf(request));
      if ((await storage.toolsets.get(toolset_id, scope)) === undefined) throw notFoundError("toolset", toolset_id);
      await checkBindings(tools, storage.bindings, identityOf(request));
      // The store checks the scope again under the toolset's lock: a version published meanwhile may
      // have added a binding beyond it.
      const version = await storage.toolsets.appendVersion(toolset_id, JSON.stringify(tools), clock.nowMs(), scope);
      if (version === undefined) throw notFoundError("toolset", toolset_id);
      return reply.code(201).send(toolsetVersionOf(version));
    },
  );

  app.get(
    "/v1/toolsets",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "listToolsets",
        tags: TAGS,
        summary: "List toolsets",
        description:
          "Toolsets whose bindings (those of every version) all lie in the credential's binding scope, in creation order, each with its latest version number.",
        querystring: PageQuery,
        response: { 200: ToolsetList, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      wirePage(
        await storage.toolsets.list(pageRequestOf(request.query), bindingScopeOf(identityOf(request))),
        toolsetOf,
      ),
  );

  app.get(
    "/v1/toolsets/:toolset_id",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "getToolset",
        tags: TAGS,
        summary: "Read a toolset",
        description:
          "The toolset and its latest version number. 404 when it does not exist or references a binding outside the credential's binding scope.",
        params: ToolsetIdParams,
        response: { 200: Toolset, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { toolset_id } = request.params;
      const toolset = await storage.toolsets.get(toolset_id, bindingScopeOf(identityOf(request)));
      if (toolset === undefined) throw notFoundError("toolset", toolset_id);
      return toolsetOf(toolset);
    },
  );

  app.get(
    "/v1/toolsets/:toolset_id/versions",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "listToolsetVersions",
        tags: TAGS,
        summary: "List a toolset's versions",
        description: "Versions oldest first, each with its tools.",
        params: ToolsetIdParams,
        querystring: PageQuery,
        response: { 200: ToolsetVersionList, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { toolset_id } = request.params;
      if ((await storage.toolsets.get(toolset_id, bindingScopeOf(identityOf(request)))) === undefined) {
        throw notFoundError("toolset", toolset_id);
      }
      return wirePage(await storage.toolsets.listVersions(toolset_id, pageRequestOf(request.query)), toolsetVersionOf);
    },
  );

  app.get(
    "/v1/toolsets/:toolset_id/versions/:version",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("configuration:read"),
      schema: {
        operationId: "getToolsetVersion",
        tags: TAGS,
        summary: "Read a toolset version",
        description: "One immutable version: the same answer every time.",
        params: ToolsetVersionParams,
        response: { 200: ToolsetVersion, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { toolset_id, version } = request.params;
      const visible = await storage.toolsets.get(toolset_id, bindingScopeOf(identityOf(request)));
      const found = visible === undefined ? undefined : await storage.toolsets.getVersion(toolset_id, version);
      if (found === undefined) throw notFoundError("toolset version", `${toolset_id}@${version}`);
      return toolsetVersionOf(found);
    },
  );
};
