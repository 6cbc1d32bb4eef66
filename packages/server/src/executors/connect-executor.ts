/**
 * `POST /v1/executors/connect`: a stable executor ID chosen by the product gets a new connection.
 * Every binding must exist and lie in the key's binding scope (422 `unknown_reference` naming the
 * first one that does not). A reconnect supersedes the older connection in one upsert (epoch + 1): from
 * then on the old connection answers 409 `connection_superseded`. Claims survive a reconnect: they are
 * bound to the executor ID, not to a connection. A reconnect may only come from a key whose binding
 * scope reaches every binding of the connection it supersedes (409 `conflict` otherwise), so one
 * product cannot fence another product's executor by reusing its ID. The connection may declare the
 * tools it runs (`tool_names`, stored with it and shown by binding diagnostics).
 */

import { ProtocolError } from "@toolhost/protocol";
import type { ConnectRequest, ExecutorConnection } from "@toolhost/protocol/wire";
import { executorInScope } from "../auth/executor-access.js";
import { bindingScopeOf } from "../auth/id-scope.js";
import type { Identity } from "../auth/identity.js";
import type { Clock } from "../clock.js";
import { newId } from "../ids.js";
import type { CompiledServerOptions } from "../options.js";
import type { Storage } from "../storage/storage.js";
import { connectionWire } from "./executor-wire.js";

/** The prefix of connection IDs. */
export const CONNECTION_ID_PREFIX = "conn";

/** Connects `body.executor_id` for `body.binding_ids` on behalf of `identity`. */
export async function connectExecutor(
  context: {
    readonly storage: Storage;
    readonly clock: Clock;
    readonly options: Pick<CompiledServerOptions, "heartbeatIntervalMs" | "leaseTtlMs">;
  },
  identity: Identity,
  body: ConnectRequest,
): Promise<ExecutorConnection> {
  const { storage, clock, options } = context;
  const existing = await storage.bindings.existing(body.binding_ids, bindingScopeOf(identity));
  const missing = body.binding_ids.findIndex((bindingId) => !existing.has(bindingId));
  if (missing >= 0) {
    const bindingId = body.binding_ids[missing] as string;
    throw new ProtocolError(
      "unknown_reference",
      `executor binding ${JSON.stringify(bindingId)} does not exist`,
      `/binding_ids/${missing}`,
      { binding_id: bindingId },
    );
  }
  const current = await storage.executors.get(body.executor_id);
  if (current !== undefined && !executorInScope(identity, current)) {
    throw new ProtocolError(
      "conflict",
      `executor ID ${JSON.stringify(body.executor_id)} is connected for bindings outside this key's binding scope; choose another executor ID`,
      "/executor_id",
    );
  }
  const nowMs = clock.nowMs();
  const executor = await storage.executors.connect({
    executor_id: body.executor_id,
    connection_id: newId(CONNECTION_ID_PREFIX, nowMs),
    binding_ids: body.binding_ids,
    key_id: identity.keyId,
    now_ms: nowMs,
    lease_expires_ms: nowMs + options.leaseTtlMs,
    tool_names: body.tool_names ?? null,
  });
  return connectionWire(executor, options.heartbeatIntervalMs, options.leaseTtlMs);
}
