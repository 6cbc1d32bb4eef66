/** The calls aggregate: its stores over one store context. */

import type { StoreContext } from "../engine/store-context.js";
import { KyselyCallClaimStore } from "./call-claim-store.js";
import { KyselyCallStatsStore } from "./call-stats-store.js";
import { KyselyCallStore } from "./call-store.js";
import type { CallStores } from "./contract.js";
import { KyselyExecutorReportStore } from "./executor-report-store.js";
import { KyselyPendingCallStore } from "./pending-call-store.js";
import { KyselyReceiptStore } from "./receipt-store.js";

export type { CallStores } from "./contract.js";

/** The calls stores, running their statements through `ctx`. */
export function createCallStores(ctx: StoreContext): CallStores {
  return {
    calls: new KyselyCallStore(ctx),
    callClaims: new KyselyCallClaimStore(ctx),
    receipts: new KyselyReceiptStore(ctx),
    pendingCalls: new KyselyPendingCallStore(ctx),
    executorReports: new KyselyExecutorReportStore(ctx),
    callStats: new KyselyCallStatsStore(ctx),
  };
}
