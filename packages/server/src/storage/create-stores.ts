/** Every store over one store context. */

import { KyselyCallClaimStore } from "./calls/call-claim-store.js";
import { KyselyCallStatsStore } from "./calls/call-stats-store.js";
import { KyselyCallStore } from "./calls/call-store.js";
import { KyselyExecutorReportStore } from "./calls/executor-report-store.js";
import { KyselyPendingCallStore } from "./calls/pending-call-store.js";
import { KyselyReceiptStore } from "./calls/receipt-store.js";
import { KyselyAgentStore } from "./config/agent-store.js";
import { KyselyBindingStore } from "./config/binding-store.js";
import { KyselyKeyStore } from "./config/key-store.js";
import { KyselySecretStore } from "./config/secret-store.js";
import { KyselySessionStore } from "./config/session-store.js";
import { KyselyToolsetStore } from "./config/toolset-store.js";
import type { StoreContext } from "./engine/store-context.js";
import { KyselyExecutorStore } from "./executors/executor-store.js";
import { KyselyHistoryStore } from "./runs/history-store.js";
import { KyselyModelRequestStore } from "./runs/model-request-store.js";
import { KyselyModelTurnStore } from "./runs/model-turn-store.js";
import { KyselyRunEventStore } from "./runs/run-event-store.js";
import { KyselyRunRetentionStore } from "./runs/run-retention-store.js";
import { KyselyRunStore } from "./runs/run-store.js";
import { KyselyTokenCalibrationStore } from "./runs/token-calibration-store.js";
import type { Stores } from "./storage.js";

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
