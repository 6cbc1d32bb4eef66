/** The five stores over one store context. */

import type { Stores } from "../storage.js";
import type { StoreContext } from "../store-context.js";
import { KyselyAgentStore } from "./agent-store.js";
import { KyselyBindingStore } from "./binding-store.js";
import { KyselyKeyStore } from "./key-store.js";
import { KyselySessionStore } from "./session-store.js";
import { KyselyToolsetStore } from "./toolset-store.js";

/** Every store, running its statements through `ctx`. */
export function createStores(ctx: StoreContext): Stores {
  return {
    keys: new KyselyKeyStore(ctx),
    bindings: new KyselyBindingStore(ctx),
    toolsets: new KyselyToolsetStore(ctx),
    agents: new KyselyAgentStore(ctx),
    sessions: new KyselySessionStore(ctx),
  };
}
