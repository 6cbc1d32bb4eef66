/** The runs aggregate: its stores over one store context. */

import type { StoreContext } from "../engine/store-context.js";
import type { RunStores } from "./contract.js";
import { KyselyHistoryStore } from "./history-store.js";
import { KyselyModelRequestStore } from "./model-request-store.js";
import { KyselyModelTurnStore } from "./model-turn-store.js";
import { KyselyRunEventStore } from "./run-event-store.js";
import { KyselyRunRetentionStore } from "./run-retention-store.js";
import { KyselyRunStore } from "./run-store.js";
import { KyselyTokenCalibrationStore } from "./token-calibration-store.js";

export type { RunStores } from "./contract.js";

/** The runs stores, running their statements through `ctx`. */
export function createRunStores(ctx: StoreContext): RunStores {
  return {
    runs: new KyselyRunStore(ctx),
    history: new KyselyHistoryStore(ctx),
    modelTurns: new KyselyModelTurnStore(ctx),
    modelRequests: new KyselyModelRequestStore(ctx),
    tokenCalibrations: new KyselyTokenCalibrationStore(ctx),
    runEvents: new KyselyRunEventStore(ctx),
    runRetention: new KyselyRunRetentionStore(ctx),
  };
}
