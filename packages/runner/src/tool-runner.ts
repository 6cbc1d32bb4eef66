/**
 * ToolRunner, the executor SDK. A product registers its tools and starts the runner; the runner
 * connects under the stable executor ID, recovers its journal, heartbeats, long-polls for calls and
 * carries each call through the protocol's order — journal before `accepted`, side effects only after
 * `confirmed: true`, receipts journaled before they are sent and redelivered until acknowledged,
 * unknown outcomes reconciled by the product's resolver, never by running a write handler twice.
 * Its background loops are supervised: nothing the server answers (or a bug) can throw into the host
 * process; a problem that will not pass moves the runner to `failed`, reported by `start()`, `done()`
 * and the `failed` event.
 */

import type { ResultType } from "@toolhost/protocol";
import type { ToolInput } from "@toolhost/protocol/wire";
import type { Static, TSchema } from "typebox";
import { type CodeFirstTool, type ToolDefinition, type TypedToolHandler, toolInputsOf } from "./code-first-tools.js";
import { asRunnerError, RunnerError } from "./errors.js";
import { type RunnerEventName, RunnerEvents, type RunnerListener } from "./events.js";
import { ServerClient } from "./http/server-client.js";
import { Journal } from "./journal/journal.js";
import { toJsonValue } from "./json-value.js";
import { compileRunnerOptions, FENCED_EXIT_CODE, type ToolRunnerOptions } from "./options.js";
import { startTracingFromEnv, TRACE_FLUSH_WAIT_MS, type TracingHandle } from "./otel/start-tracing.js";
import { exportRunnerMetrics } from "./prometheus-export.js";
import { type ReconcileResolver, type RegisterOptions, type ToolHandler, ToolRegistry } from "./registry.js";
import { isRunnerEdge, type RunnerState } from "./runner-state.js";
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
import { ReceiptBatcher } from "./runtime/receipt-batcher.js";
import { ReceiptDelivery } from "./runtime/receipt-delivery.js";
import { recoverJournal } from "./runtime/recover-journal.js";
import type { RunnerRuntime } from "./runtime/runner-runtime.js";
import { superviseLoop } from "./runtime/supervised-loop.js";
import { TaskTracker } from "./runtime/task-tracker.js";
import { ToolSlots } from "./runtime/tool-slots.js";
import { TroubleWatch } from "./runtime/trouble-watch.js";
import { type RunnerStats, StatsCounters } from "./stats.js";
import type { DeferredHandle } from "./tool-context.js";
import { type PublishedToolset, type PublishToolsetOptions, publishToolset } from "./toolset-publisher.js";

/** The executor SDK: register tools, start, stop. */
export class ToolRunner {
  readonly #rt: RunnerRuntime;
  /** Ends the heartbeat once in-flight calls are drained (the lease must outlive them). */
  readonly #halt = new AbortController();
  readonly #loops: Promise<void>[] = [];
  /** The code-first tools, in declaration order. */
  readonly #definitions: ToolDefinition[] = [];
  #state: RunnerState = "created";
  #failure: RunnerError | null = null;
  #starting: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  /** Settles when the runner stopped (resolves) or failed and stopped itself (rejects with the failure). */
  readonly #done: Promise<void>;
  #settleDone: (failure: RunnerError | null) => void = () => undefined;
  /** The trace SDK the environment asked for, when this process runs one. */
  #tracing: TracingHandle | undefined;

  /** Checks the options and opens the journal (nothing is sent before `start`). */
  constructor(options: ToolRunnerOptions) {
    const compiled = compileRunnerOptions(options);
    const logger = compiled.logger;
    const stats = new StatsCounters();
    if (compiled.metricsRegistry !== null) {
      exportRunnerMetrics(compiled.metricsRegistry, compiled.executorId, () => this.stats());
    }
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
    const fail = (error: RunnerError): void => this.#fail(error);
    const watch = new TroubleWatch({ options: compiled, logger, stats, fail });
    const registry = new ToolRegistry(compiled.maxConcurrencyPerTool);
    this.#done = new Promise<void>((resolve, reject) => {
      this.#settleDone = (failure) => (failure === null ? resolve() : reject(failure));
    });
    // Handled here, so a product that never asks for done() never sees an unhandled rejection.
    this.#done.catch(() => undefined);
    const connection = new ConnectionManager({
      options: compiled,
      client,
      logger,
      stats,
      events,
      watch,
      fail,
      toolNames: () => registry.declaredNames(),
    });
    this.#rt = {
      options: compiled,
      journal,
      client,
      logger,
      stats,
      events,
      registry,
      connection,
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
        watch,
        batcher: new ReceiptBatcher(client, compiled.executorId, connection, stats),
      }),
      tasks: new TaskTracker(logger),
      lifecycle,
      busy: new Set(),
      declined: new Map(),
      watch,
      fail,
      claiming: new Set(),
      unservedTools: new Set(),
    };
  }

  /** The executor's stable ID. */
  get executorId(): string {
    return this.#rt.options.executorId;
  }

  /** Where the runner is in its life: `created`, `starting`, `started`, `stopping`, `stopped` or `failed`. */
  get state(): RunnerState {
    return this.#state;
  }

  /** Why the runner failed (a RunnerError with a stable code), or null while it has not. */
  get failure(): RunnerError | null {
    return this.#failure;
  }

  /**
   * Settles once the runner is over: resolves after `stop()` finished, rejects with the failure (a
   * RunnerError: `access_refused`, `connect_refused`, `fenced`, `internal_failure`) once a failed runner
   * stopped itself. Await it to keep a process alive exactly as long as its runner.
   */
  done(): Promise<void> {
    return this.#done;
  }

  /** Registers a tool's handler (`effect` must match the tool definition's). */
  register(name: string, handler: ToolHandler, options: RegisterOptions): this {
    this.#rt.registry.register(name, handler, options);
    return this;
  }

  /**
   * Declares a code-first tool and registers its handler: the definition (name, description, TypeBox
   * `inputSchema`, effect, timeout, result budget) is what `publishToolset()` publishes, and the
   * handler's `call.arguments` has the schema's type.
   */
  tool<Schema extends TSchema>(definition: ToolDefinition<Schema>, handler: TypedToolHandler<Static<Schema>>): this {
    this.#rt.registry.register(definition.name, handler as ToolHandler, {
      effect: definition.effect,
      ...(definition.authorize === undefined
        ? {}
        : { authorize: definition.authorize as RegisterOptions["authorize"] }),
      ...(definition.resultType === undefined ? {} : { resultType: definition.resultType }),
      ...(definition.maxConcurrency === undefined ? {} : { maxConcurrency: definition.maxConcurrency }),
    });
    this.#definitions.push(definition as unknown as ToolDefinition);
    return this;
  }

  /** Serves tools declared with `defineTool` (each as `tool(definition, handler)`). */
  tools(...declared: CodeFirstTool[]): this {
    for (const { definition, handler } of declared) this.tool(definition, handler);
    return this;
  }

  /** The toolset version the code-first tools make (`tools` of `POST /v1/toolsets/{id}/versions`). */
  toolsetDefinition(): ToolInput[] {
    return toolInputsOf(this.#definitions, this.#rt.options.bindingIds);
  }

  /**
   * Publishes the code-first tools as a toolset version: a new toolset (`name`) or the next version of
   * `toolsetId`, unless its latest version already holds them. Needs a key with `configuration:write`
   * (`apiKey`, default the runner's own). Throws RunnerError `publish_refused` when the server refuses.
   */
  publishToolset(options: PublishToolsetOptions): Promise<PublishedToolset> {
    const { baseUrl, apiKey, fetch } = this.#rt.options;
    return publishToolset({ baseUrl, apiKey: options.apiKey ?? apiKey, fetch }, this.toolsetDefinition(), options);
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
   * Connects (retrying while the server is unreachable or answers what the runner cannot read),
   * reports and recovers the journal, then starts the heartbeat, pending and maintenance loops.
   * Rejects with RunnerError `connect_refused` when the server refuses the connection (bad key, scope
   * or binding), and with the failure when the runner fails before it started; the runner is `failed`.
   */
  start(): Promise<void> {
    if (!this.#move("starting")) {
      return Promise.reject(new RunnerError("invalid_lifecycle", `start() called on a ${this.#state} runner`));
    }
    this.#starting = this.#start().then(
      () => {
        if (this.#failure !== null) throw this.#failure;
      },
      (error: unknown) => {
        this.#fail(asRunnerError(error, "start()"));
        throw this.#failure ?? asRunnerError(error, "start()");
      },
    );
    return this.#starting;
  }

  async #start(): Promise<void> {
    const rt = this.#rt;
    // The OTEL_* variables start the trace SDK (nothing is loaded without them); see docs/operations.md#traces.
    this.#tracing = await startTracingFromEnv({
      serviceName: "toolhost-runner",
      warn: (message) => rt.logger.warn(message),
    });
    rt.journal.prune(Date.now() - rt.options.journalRetentionMs);
    const limitMs = rt.options.connectTimeoutMs;
    const signal =
      limitMs === null
        ? rt.lifecycle.stopSignal
        : AbortSignal.any([rt.lifecycle.stopSignal, AbortSignal.timeout(limitMs)]);
    const connection = await rt.connection.ensure(signal, true);
    if (connection === null) {
      if (limitMs !== null && signal.aborted && !rt.lifecycle.stopSignal.aborted && this.#failure === null) {
        throw new RunnerError("connect_timeout", `could not connect to ${rt.options.baseUrl} within ${limitMs} ms`, {
          connectTimeoutMs: limitMs,
        });
      }
      return;
    }
    rt.lifecycle.started = true;
    this.#loops.push(superviseLoop("heartbeat", () => heartbeatLoop(rt, this.#halt.signal), rt.fail));
    await recoverJournal(rt);
    if (rt.lifecycle.stopping) return;
    sweepOutbox(rt);
    this.#loops.push(
      superviseLoop("pending", () => pendingLoop(rt), rt.fail),
      superviseLoop("maintenance", () => maintenanceLoop(rt), rt.fail),
    );
    if (this.#move("started")) {
      rt.logger.info("runner started", { executorId: rt.options.executorId, bindingIds: rt.options.bindingIds });
    }
  }

  /**
   * Stops taking calls, waits for in-flight handlers and their receipts (undelivered receipts stay in
   * the journal for the next start), detaches from the server (accepted calls stay with the executor
   * ID) and closes the journal. Safe to call more than once, and on a runner never started.
   */
  stop(): Promise<void> {
    if (this.#stopping === undefined) {
      this.#move("stopping");
      this.#stopping = this.#shutdown().finally(() => {
        this.#move("stopped");
        this.#settleDone(null);
      });
    }
    // A failed runner's shutdown is under way (or over): stopping it is done when that is.
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
      journal: this.#shutDown ? null : rt.journal.counts(),
      connection: connection === null ? null : { connectionId: connection.connectionId, epoch: connection.epoch },
    };
  }

  /**
   * Fails the runner with `error` (the first failure wins; one after `stop()` began is only logged):
   * the runner is `failed`, the `failed` event fires, and it stops itself like `stop()` does; `done()`
   * rejects with `error` once that is over. Never throws.
   */
  #fail(error: RunnerError): void {
    const rt = this.#rt;
    if (this.#state === "created" || !this.#move("failed")) {
      quietly(() =>
        rt.logger.warn("a failure after the runner began to stop (or before it started) is only logged", {
          state: this.#state,
          code: error.code,
          message: error.message,
        }),
      );
      return;
    }
    this.#failure = error;
    // The shutdown starts before anything else runs: a logger or listener that throws cannot keep it off.
    this.#stopping ??= this.#shutdown().then(
      () => this.#settleDone(error),
      () => this.#settleDone(error),
    );
    if (error.code === "fenced" && rt.options.exitWhenFenced) {
      // Only once the journal is closed: what was journaled stays for the process that took over.
      void this.#stopping.finally(() => {
        quietly(() => rt.logger.error("fenced: exiting", { exitCode: FENCED_EXIT_CODE }));
        process.exit(FENCED_EXIT_CODE);
      });
    }
    quietly(() =>
      rt.logger.error("the runner failed; it stops itself", {
        code: error.code,
        message: error.message,
        details: error.details,
        cause: error.cause instanceof Error ? error.cause : undefined,
      }),
    );
    quietly(() => rt.events.emit("failed", { code: error.code, message: error.message, error }));
  }

  /** True once the shutdown closed the journal. */
  #shutDown = false;

  /** Moves the runner to `next` when that is an edge of RUNNER_TRANSITIONS; false otherwise. */
  #move(next: RunnerState): boolean {
    if (!isRunnerEdge(this.#state, next)) return false;
    this.#state = next;
    return true;
  }

  /**
   * Stops taking calls, waits for in-flight handlers and their receipts, detaches (unless fenced) and
   * closes the journal: the end of `stop()` and of a failure alike.
   */
  async #shutdown(): Promise<void> {
    const rt = this.#rt;
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
      this.#shutDown = true;
      rt.journal.close();
      // The handler spans ended so far leave before stop() resolves; a silent collector holds it 2 s at most.
      await this.#tracing?.flushWithin(TRACE_FLUSH_WAIT_MS);
    }
  }

  #resultTypeOf(handle: DeferredHandle | string): ResultType | undefined {
    const handleId = typeof handle === "string" ? handle : handle?.id;
    const entry = typeof handleId === "string" ? this.#rt.journal.byHandle(handleId) : undefined;
    return entry === undefined ? undefined : this.#rt.registry.get(entry.toolName)?.resultType;
  }
}

/** Runs `work` (logging), ignoring what it throws: failing must never throw into a loop. */
function quietly(work: () => void): void {
  try {
    work();
  } catch {
    // A product logger that throws: nothing more can be reported.
  }
}
