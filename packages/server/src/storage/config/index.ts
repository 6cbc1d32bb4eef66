/** The config aggregate: its stores over one store context. */

import type { StoreContext } from "../engine/store-context.js";
import { KyselyAgentStore } from "./agent-store.js";
import { KyselyBindingStore } from "./binding-store.js";
import type { ConfigStores } from "./contract.js";
import { KyselyKeyStore } from "./key-store.js";
import { KyselySecretStore } from "./secret-store.js";
import { KyselySessionStore } from "./session-store.js";
import { KyselyToolsetStore } from "./toolset-store.js";

export type { ConfigStores } from "./contract.js";

/** The config stores, running their statements through `ctx`. */
export function createConfigStores(ctx: StoreContext): ConfigStores {
  return {
    keys: new KyselyKeyStore(ctx),
    bindings: new KyselyBindingStore(ctx),
    toolsets: new KyselyToolsetStore(ctx),
    agents: new KyselyAgentStore(ctx),
    sessions: new KyselySessionStore(ctx),
    secrets: new KyselySecretStore(ctx),
  };
}
