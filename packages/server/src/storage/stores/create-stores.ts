/** Every store over one store context. */

import type { StoreContext } from "../engine/store-context.js";
import type { Stores } from "../storage.js";
import { KyselyAgentStore } from "./agent-store.js";
import { KyselyBindingStore } from "./binding-store.js";
import { KyselyCallClaimStore } from "./call-claim-store.js";
import { KyselyCallStatsStore } from "./call-stats-store.js";
import { KyselyCallStore } from "./call-store.js";
import { KyselyExecutorReportStore } from "./executor-report-store.js";
import { KyselyExecutorStore } from "./executor-store.js";
import { KyselyHistoryStore } from "./history-store.js";
import { KyselyKeyStore } from "./key-store.js";
import { KyselyModelRequestStore } from "./model-request-store.js";
import { KyselyModelTurnStore } from "./model-turn-store.js";
import { KyselyPendingCallStore } from "./pending-call-store.js";
import { KyselyReceiptStore } from "./receipt-store.js";
import { KyselyRunEventStore } from "./run-event-store.js";
import { KyselyRunRetentionStore } from "./run-retention-store.js";
import { KyselyRunStore } from "./run-store.js";
import { KyselySecretStore } from "./secret-store.js";
import { KyselySessionStore } from "./session-store.js";
import { KyselyTokenCalibrationStore } from "./token-calibration-store.js";
import { KyselyToolsetStore } from "./toolset-store.js";

/** Every store, running its statements through `ctx`. */
export function createStores(ctx: StoreContext): Stores {
  return {
    afterCommit: ctx.afterCommit,
    keys: new KyselyKeyStore(ctx),
    bindings: new KyselyBindingStore(ctx),
    toolsets: new KyselyToolsetStore(ctx),
    agents: new KyselyAgentStore(ctx),
    sessions: new KyselySessionStore(ctx),
    runs: new KyselyRunStore(ctx),
    history: new KyselyHistoryStore(ctx),
    calls: new KyselyCallStore(ctx),
    callClaims: new KyselyCallClaimStore(ctx),
    receipts: new KyselyReceiptStore(ctx),
    secrets: new KyselySecretStore(ctx),
    executors: new KyselyExecutorStore(ctx),
    pendingCalls: new KyselyPendingCallStore(ctx),
    executorReports: new KyselyExecutorReportStore(ctx),
    callStats: new KyselyCallStatsStore(ctx),
    modelTurns: new KyselyModelTurnStore(ctx),
    modelRequests: new KyselyModelRequestStore(ctx),
    tokenCalibrations: new KyselyTokenCalibrationStore(ctx),
    runEvents: new KyselyRunEventStore(ctx),
    runRetention: new KyselyRunRetentionStore(ctx),
  };
}
