/**
 * Everything the call flows share: options, the journal, the HTTP client, the registry, the
 * connection, concurrency slots, cancellations, the outbox sender, in-flight bookkeeping and the
 * lifecycle. One object per ToolRunner; the flows are plain functions over it.
 */

import type { RunnerError } from "../errors.js";
import type { RunnerEvents } from "../events.js";
import type { ServerClient } from "../http/server-client.js";
import type { Journal } from "../journal/journal.js";
import type { RunnerLogger } from "../logger.js";
import type { CompiledRunnerOptions } from "../options.js";
import type { ToolRegistry } from "../registry.js";
import type { StatsCounters } from "../stats.js";
import type { CancellationBook } from "./cancellations.js";
import type { ConnectionManager } from "./connection.js";
import type { Lifecycle } from "./lifecycle.js";
import type { ReceiptDelivery } from "./receipt-delivery.js";
import type { TaskTracker } from "./task-tracker.js";
import type { ToolSlots } from "./tool-slots.js";
import type { TroubleWatch } from "./trouble-watch.js";

/** The shared state of one runner. */
export interface RunnerRuntime {
  readonly options: CompiledRunnerOptions;
  readonly journal: Journal;
  readonly client: ServerClient;
  readonly logger: RunnerLogger;
  readonly stats: StatsCounters;
  readonly events: RunnerEvents;
  readonly registry: ToolRegistry;
  readonly connection: ConnectionManager;
  readonly slots: ToolSlots;
  readonly cancellations: CancellationBook;
  readonly delivery: ReceiptDelivery;
  readonly tasks: TaskTracker;
  readonly lifecycle: Lifecycle;
  /** Trouble with the server per channel: back-off, logging once per streak, failing on lasting refusals. */
  readonly watch: TroubleWatch;
  /** Fails the runner for good (it stops; `start()`/`done()` reject with `error`). Never throws. */
  readonly fail: (error: RunnerError) => void;
  /** Calls whose claim request is in flight (while claims are in trouble, one probe at a time). */
  readonly claiming: Set<string>;
  /** Tools the pending loop saw candidates of without a registered handler (each warned about once). */
  readonly unservedTools: Set<string>;
  /** Calls an in-process flow is working on (claim to final delivery); other loops leave them alone. */
  readonly busy: Set<string>;
  /** Calls declined here (not served): skipped by the pending loop until the given time (epoch ms). */
  readonly declined: Map<string, number>;
}
