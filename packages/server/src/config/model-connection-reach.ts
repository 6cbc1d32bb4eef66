/**
 * Which model connection an agent version may name (pure): one the operator declared, inside the
 * publishing key's `connections`, serving the settings' provider. A connection outside the key's reach
 * is answered exactly like one that does not exist (422 `unknown_reference` at `/model/connection`),
 * so a key never learns which connections other tenants use; only then is the provider compared, so
 * the answer never tells a connection's provider to a key that cannot reach it.
 */

import { type ModelConnections, type ModelSettings, ProtocolError } from "@toolhost/protocol";
import { inIdScope } from "../auth/id-scope.js";
import type { IdScope } from "../storage/records.js";

/** Throws 422 unless `settings` (validated) name a connection `reach` may use; the scripted model names none. */
export function assertConnectionInReach(settings: ModelSettings, connections: ModelConnections, reach: IdScope): void {
  if (settings.provider === "scripted") return;
  const id = settings.connection;
  const connection = inIdScope(reach, id) ? connections.get(id) : undefined;
  if (connection === undefined) {
    throw new ProtocolError(
      "unknown_reference",
      `model connection ${JSON.stringify(id)} does not exist`,
      "/model/connection",
      { kind: "model_connection", id },
    );
  }
  if (connection.provider !== settings.provider) {
    throw new ProtocolError(
      "validation_failed",
      `provider must be ${JSON.stringify(connection.provider)}, the provider of model connection ${JSON.stringify(id)}`,
      "/model/provider",
      { connection: id, provider: connection.provider },
    );
  }
}
