/**
 * ToolRunner, the executor SDK. A product registers its tools and starts the runner; the runner
 * connects under the stable executor ID, recovers its journal, heartbeats, long-polls for calls and
 * carries each call through the protocol's order — journal before `accepted`, side effects only after
 * `confirmed: true`, receipts journaled before they are sent and redelivered until acknowledged,
 * unknown outcomes reconciled by the product's resolver, never by running a write handler twice.
 */

import type { ResultType } from "@toolhost/protocol";
import { RunnerError } from "./errors.js";
import { type RunnerEventName, RunnerEvents, type RunnerListener } from "./events.js";
import { ServerClient } from "./http/server-client.js";
import { Journal } from "./journal/journal.js";
import { toJsonValue } from "./json-value.js";
import { compileRunnerOptions, type ToolRunnerOptions } from "./options.js";
import { type ReconcileResolver, type RegisterOptions, type ToolHandler, ToolRegistry } from "./registry.js";
import { CancellationBook } from "./runtime/cancellations.js";
import { ConnectionManager } from "./runtime/connection.js";
import {
  type DeferredError,
  deferredProgress,
  type FinishResult,
  failureDraft,
  finishDeferred,
} from "./runtime/deferred-calls.js";
import { heartbeatLoop } from "./runtime/heartbeat-loop.js";
import { Lifecycle } from "./runtime/lifecycle.js";
import { maintenanceLoop, sweepOutbox } from "./runtime/maintenance-loop.js";
import { pendingLoop } from "./runtime/pending-loop.js";
import { ReceiptDelivery } from "./runtime/receipt-delivery.js";
import { recoverJournal } from "./runtime/recover-journal.js";
import type { RunnerRuntime } from "./runtime/runner-runtime.js";
import { TaskTracker } from "./runtime/task-tracker.js";
import { ToolSlots } from "./runtime/tool-slots.js";
import { type RunnerStats, StatsCounters } from "./stats.js";
import type { DeferredHandle } from "./tool-context.js";

/** Where a runner is in its life. */
const RUNNER_STATES = {
  created: "created",
  starting: "starting",
  started: "started",
  stopping: "stopping",
  stopped: "stopped",
} as const;

type RunnerState = keyof typeof RUNNER_STATES;

/** The executor SDK: register tools, start, stop. */
export class ToolRunner {
  readonly #rt: RunnerRuntime;
  /** Ends the heartbeat once in-flight calls are drained (the lease must outlive them). */
  readonly #halt = new AbortController();
  readonly #loops: Promise<void>[] = [];
  #state: RunnerState = "created";
  #starting: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;

  /** Checks the options and opens the journal (nothing is sent before `start`). */
  constructor(options: ToolRunnerOptions) {
    const compiled = compileRunnerOptions(options);
    const logger = compiled.logger;
    const stats = new StatsCounters();
    const events = new RunnerEvents(logger);
    const journal = Journal.open(compiled.journalPath);
    const client = new ServerClient({
      baseUrl: compiled.baseUrl,
      apiKey: compiled.apiKey,
      fetch: compiled.fetch,
      requestTimeoutMs: compiled.requestTimeoutMs,
    });
    const lifecycle = new Lifecycle();
    const cancellations = new CancellationBook();
    this.#rt = {
      options: compiled,
      journal,
      client,
      logger,
      stats,
      events,
      registry: new ToolRegistry(compiled.maxConcurrencyPerTool),
      connection: new ConnectionManager({ options: compiled, client, logger, stats, events }),
      slots: new ToolSlots(),
      cancellations,
      delivery: new ReceiptDelivery({
        options: compiled,
        journal,
        client,
        logger,
        stats,
        events,
        lifecycle,
        cancellations,
      }),
      tasks: new TaskTracker(logger),
      lifecycle,
      busy: new Set(),
      declined: new Map(),
    };
  }

  /** The executor's stable ID. */
  get executorId(): string {
    return this.#rt.options.executorId;
  }

  /** Registers a tool's handler (`effect` must match the tool definition's). */
  register(name: string, handler: ToolHandler, options: RegisterOptions): this {
    this.#rt.registry.register(name, handler, options);
    return this;
  }

  /** Registers the resolver that settles a write tool's calls whose outcome is unknown. */
  onReconcile(name: string, resolver: ReconcileResolver): this {
    this.#rt.registry.onReconcile(name, resolver);
    return this;
  }

  /** Subscribes to a lifecycle event (listeners run synchronously at that point of the protocol). */
  on<E extends RunnerEventName>(event: E, listener: RunnerListener<E>): this {
    this.#rt.events.on(event, listener);
    return this;
  }

  /** Unsubscribes a listener. */
  off<E extends RunnerEventName>(event: E, listener: RunnerListener<E>): this {
    this.#rt.events.off(event, listener);
    return this;
  }

  /**
   * Connects (retrying while the server is unreachable), reports and recovers the journal, then starts
   * the heartbeat, pending and maintenance loops. Rejects with RunnerError `connect_refused` when the
   * server refuses the connection (bad key, scope or binding).
   */
  start(): Promise<void> {
    if (this.#state !== "created") {
      return Promise.reject(new RunnerError("invalid_lifecycle", `start() called on a ${this.#state} runner`));
    }
    this.#state = "starting";
    this.#starting = this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    const rt = this.#rt;
    rt.journal.prune(Date.now() - rt.options.journalRetentionMs);
    const connection = await rt.connection.ensure(rt.lifecycle.stopSignal, true);
    if (connection === null) return;
    rt.lifecycle.started = true;
    this.#loops.push(heartbeatLoop(rt, this.#halt.signal));
    await recoverJournal(rt);
    if (rt.lifecycle.stopping) return;
    sweepOutbox(rt);
    this.#loops.push(pendingLoop(rt), maintenanceLoop(rt));
    if (this.#state === "starting") this.#state = "started";
    rt.logger.info("runner started", { executorId: rt.options.executorId, bindingIds: rt.options.bindingIds });
  }

  /**
   * Stops taking calls, waits for in-flight handlers and their receipts (undelivered receipts stay in
   * the journal for the next start), detaches from the server (accepted calls stay with the executor
   * ID) and closes the journal. Safe to call more than once, and on a runner never started.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  /** Finishes a deferred call with its result (`completed`); any process sharing the journal may call it. */
  complete(
    handle: DeferredHandle | string,
    result: unknown,
    options: { resultType?: ResultType } = {},
  ): Promise<FinishResult> {
    const resultType = options.resultType ?? this.#resultTypeOf(handle);
    const value = toJsonValue(result === undefined ? null : result);
    const draft =
      resultType === undefined
        ? { kind: "completed" as const, result: value }
        : { kind: "completed" as const, result: value, resultType };
    return finishDeferred(this.#rt, handle, draft, "deferred_completed");
  }

  /** Finishes a deferred call as failed (a CancelledError reports `cancelled`). */
  fail(handle: DeferredHandle | string, error: DeferredError): Promise<FinishResult> {
    return finishDeferred(this.#rt, handle, failureDraft(error), "deferred_failed");
  }

  /** Reports progress of a deferred call. */
  progress(handle: DeferredHandle | string, data: Record<string, unknown>): Promise<void> {
    return deferredProgress(this.#rt, handle, data);
  }

  /** The deferred calls still open in the journal (e.g. to resume their jobs after a restart). */
  openDeferred(): DeferredHandle[] {
    return this.#rt.journal
      .entriesIn(["deferred"])
      .filter((entry) => entry.handleId !== null)
      .map((entry) => ({
        id: entry.handleId as string,
        callId: entry.callId,
        runId: entry.runId,
        toolName: entry.toolName,
        operationKey: entry.operationKey,
      }));
  }

  /** Counters, in-flight handlers per tool, journal state counts and the connection. */
  stats(): RunnerStats {
    const rt = this.#rt;
    const connection = rt.connection.current;
    return {
      counters: rt.stats.snapshot(),
      inFlight: rt.slots.inUse(),
      journal: this.#state === "stopped" ? null : rt.journal.counts(),
      connection: connection === null ? null : { connectionId: connection.connectionId, epoch: connection.epoch },
    };
  }

  async #stop(): Promise<void> {
    const rt = this.#rt;
    this.#state = "stopping";
    rt.lifecycle.beginStop(Date.now());
    try {
      // A start in progress ends quickly once the stop signal is aborted; its journal work must finish first.
      await this.#starting?.catch(() => undefined);
      await rt.tasks.drain();
      this.#halt.abort();
      await Promise.allSettled(this.#loops);
      await rt.tasks.drain();
      const connection = rt.connection.fenced ? null : rt.connection.clear();
      if (connection !== null) {
        const outcome = await rt.client.disconnect(rt.options.executorId, connection.connectionId);
        if (outcome.type !== "answer")
          rt.logger.warn("detach failed; the lease will lapse on its own", { outcome: outcome.type });
        else rt.logger.info("detached", { connectionId: connection.connectionId });
      }
    } finally {
      this.#state = "stopped";
      rt.journal.close();
    }
  }

  #resultTypeOf(handle: DeferredHandle | string): ResultType | undefined {
    const handleId = typeof handle === "string" ? handle : handle?.id;
    const entry = typeof handleId === "string" ? this.#rt.journal.byHandle(handleId) : undefined;
    return entry === undefined ? undefined : this.#rt.registry.get(entry.toolName)?.resultType;
  }
}
