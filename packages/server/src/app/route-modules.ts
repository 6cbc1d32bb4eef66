/** The route table: every route module the app registers, in registration order. */

import { keyRoutes } from "../auth/key-routes.js";
import { claimRoutes } from "../calls/claim-routes.js";
import { receiptBatchRoutes } from "../calls/receipt-batch-routes.js";
import { receiptRoutes } from "../calls/receipt-routes.js";
import { agentRoutes } from "../config/agent-routes.js";
import { bindingRoutes } from "../config/binding-routes.js";
import { diagnosticsRoutes } from "../config/diagnostics-routes.js";
import { sessionRoutes } from "../config/session-routes.js";
import { toolsetRoutes } from "../config/toolset-routes.js";
import { dryRunRoutes } from "../dryrun/dry-run-routes.js";
import { executorListRoutes } from "../executors/executor-list-routes.js";
import { executorRoutes } from "../executors/executor-routes.js";
import type { RouteModule } from "../http/app.js";
import { consoleRoutes } from "../http/console-routes.js";
import { healthRoutes } from "../http/health-routes.js";
import { metricsRoutes } from "../observability/metrics-routes.js";
import { callReceiptsRoutes } from "../runs/call-receipts-routes.js";
import { eventRoutes } from "../runs/event-routes.js";
import { historyRoutes } from "../runs/history-routes.js";
import { modelRequestRoutes } from "../runs/model-request-routes.js";
import { recentRunsRoutes } from "../runs/recent-runs-routes.js";
import { runRoutes } from "../runs/run-routes.js";
import { toolCallRoutes } from "../runs/tool-call-routes.js";
import type { AppContext } from "./app-context.js";

/** Every route module, in registration order; each takes the part of the app context it declares. */
export const ROUTE_MODULES: readonly RouteModule<AppContext>[] = [
  healthRoutes,
  keyRoutes,
  dryRunRoutes,
  bindingRoutes,
  toolsetRoutes,
  agentRoutes,
  sessionRoutes,
  diagnosticsRoutes,
  claimRoutes,
  receiptRoutes,
  runRoutes,
  toolCallRoutes,
  historyRoutes,
  modelRequestRoutes,
  eventRoutes,
  executorRoutes,
  receiptBatchRoutes,
  recentRunsRoutes,
  callReceiptsRoutes,
  executorListRoutes,
  metricsRoutes,
  consoleRoutes,
];
