/** The executors aggregate: its store over one store context. */

import type { StoreContext } from "../engine/store-context.js";
import type { ExecutorStores } from "./contract.js";
import { KyselyExecutorStore } from "./executor-store.js";

export type { ExecutorStores } from "./contract.js";

/** The executors store, running its statements through `ctx`. */
export function createExecutorStores(ctx: StoreContext): ExecutorStores {
  return { executors: new KyselyExecutorStore(ctx) };
}
