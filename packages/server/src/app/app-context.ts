/** The services the composition root builds once and hands to every route module, flow and sweep. */

import type { KeyRevocations } from "../auth/key-revocations.js";
import type { Clock } from "../clock.js";
import type { RequireScope } from "../http/scope-hook.js";
import type { DomainEvents } from "../observability/domain-events.js";
import type { ServerMetrics } from "../observability/server-metrics.js";
import type { CompiledServerOptions } from "../options.js";
import type { RunDriverHandle } from "../runs/run-driver.js";
import type { RunEventTails } from "../runs/run-event-tails.js";
import type { RunProgress } from "../runs/run-progress.js";
import type { TurnEngine } from "../runs/turn-engine.js";
import type { Storage } from "../storage/storage.js";
import type { CallWakeups } from "../wakeups/call-wakeups.js";
import type { WokenCalls } from "../wakeups/woken-calls.js";

/**
 * Everything the app's route modules, flows and sweeps may be handed. Only the composition root names
 * this type; each route module, flow and sweep declares the few services it uses.
 */
export interface AppContext {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly options: CompiledServerOptions;
  /** A hook admitting callers holding any one of `scopes` (`admin` satisfies every scope); 401/403 otherwise. */
  readonly requireScope: RequireScope;
  /** How settled calls reach their runs (history, ready for the engine); call inside the settling transaction. */
  readonly runProgress: RunProgress;
  /** Advances runs whose turn settled, in its own transactions after the commit (and its recovery sweep). */
  readonly turnEngine: TurnEngine;
  /** Wake-ups of long-polling executors; `notify` only after the commit that made calls claimable. */
  readonly wakeups: CallWakeups;
  /** The wake-up each executor's last pending answer used: a claim of another call hands it on. */
  readonly wokenCalls: WokenCalls;
  /**
   * Drops a revoked key from the identity caches of this instance (at once) and of the others
   * (resolves once announced); call after the commit that revoked it.
   */
  readonly keyRevoked: (keyId: string) => Promise<void>;
  /** Revocations as they happen here and on other instances (the event streams of a revoked key end). */
  readonly keyRevocations: KeyRevocations;
  /** The shared readers of the runs followed by event streams, woken by the commits that wrote events. */
  readonly runEventTails: RunEventTails;
  /** The run driver (model requests of HTTP providers); `kick` after a commit that queued a model turn. */
  readonly runDriver: RunDriverHandle;
  /** The server's Prometheus metrics. */
  readonly metrics: ServerMetrics;
  /** Logs and counts domain events (expiries, lapsed leases, released claims, …). */
  readonly events: DomainEvents;
}
