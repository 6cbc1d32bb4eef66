/** Every store over one store context: each aggregate's, so no list of the stores is written here. */

import { createCallStores } from "./calls/index.js";
import { createConfigStores } from "./config/index.js";
import type { StoreContext } from "./engine/store-context.js";
import { createExecutorStores } from "./executors/index.js";
import { createRunStores } from "./runs/index.js";
import type { Stores } from "./storage.js";

/** Every store, running its statements through `ctx`. */
export function createStores(ctx: StoreContext): Stores {
  return {
    afterCommit: ctx.afterCommit,
    ...createConfigStores(ctx),
    ...createExecutorStores(ctx),
    ...createCallStores(ctx),
    ...createRunStores(ctx),
  };
}
