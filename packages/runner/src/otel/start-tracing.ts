/**
 * Starts the OpenTelemetry trace SDK when the standard environment asks for it (`tracingFromEnv`):
 * a tracer provider with a batching OTLP/HTTP exporter (protobuf or JSON; the exporter reads the
 * endpoint, headers, timeout and compression variables itself), the AsyncLocalStorage context
 * manager and the W3C propagator, with resource attributes from `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES` and the process and host. Nothing of the SDK is loaded when no variable
 * asks for it. A process that registered its own SDK first keeps it. One SDK per process: `toolhost
 * serve` and every ToolRunner of the process share the first one started.
 */

import { context, propagation, trace } from "@opentelemetry/api";
import { tracingFromEnv } from "./tracing-env.js";

/** What to start the SDK with. */
export interface StartTracingOptions {
  /** The default `service.name` (`OTEL_SERVICE_NAME` overrides it). */
  readonly serviceName: string;
  /** `service.version`. */
  readonly serviceVersion?: string;
  /** Told why tracing stays off although a variable asked for it (missing SDK, unsupported protocol). */
  readonly warn: (message: string) => void;
  /** Where the variables are read (default `process.env`; the exporter always reads `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A started SDK. */
export interface TracingHandle {
  /** What it exports with: `otlp http/json` or `otlp http/protobuf`. */
  readonly exporter: string;
  /** Sends the spans ended so far; gives up waiting after `ms` (they stay queued). Never rejects. */
  flushWithin(ms: number): Promise<void>;
  /** Sends what is left and stops exporting. */
  shutdown(): Promise<void>;
}

/** The packages the SDK needs (optional peer dependencies of @toolhost/runner, dependencies of the CLI). */
export const TRACING_PACKAGES = [
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/context-async-hooks",
  "@opentelemetry/core",
  "@opentelemetry/resources",
  "@opentelemetry/exporter-trace-otlp-proto",
  "@opentelemetry/exporter-trace-otlp-http",
] as const;

/** How long a ToolRunner's `stop()` waits for its spans to leave: a silent collector must not hold it. */
export const TRACE_FLUSH_WAIT_MS = 2_000;

let started: Promise<TracingHandle | undefined> | undefined;

/** Starts the SDK if the environment asks for it and none runs yet; the handle, or undefined when off. */
export function startTracingFromEnv(options: StartTracingOptions): Promise<TracingHandle | undefined> {
  const decision = tracingFromEnv(options.env ?? process.env);
  if (decision.kind === "off") return Promise.resolve(undefined);
  if (decision.kind === "unsupported") {
    options.warn(`tracing stays off: ${decision.problem}`);
    return Promise.resolve(undefined);
  }
  started ??= start(decision.protocol, options).catch((error: unknown) => {
    started = undefined;
    const missing = (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND";
    options.warn(
      missing
        ? `tracing stays off: the OpenTelemetry SDK is not installed (npm install ${TRACING_PACKAGES.join(" ")})`
        : `tracing stays off: ${(error as Error).message}`,
    );
    return undefined;
  });
  return started;
}

async function start(
  protocol: "http/protobuf" | "http/json",
  options: StartTracingOptions,
): Promise<TracingHandle | undefined> {
  const [base, hooks, core, resources] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
  ]);
  const exporter =
    protocol === "http/json"
      ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter()
      : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter();
  const defaults = resources.resourceFromAttributes({
    "service.name": options.serviceName,
    ...(options.serviceVersion === undefined ? {} : { "service.version": options.serviceVersion }),
  });
  // The environment's attributes (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) win over the defaults.
  const detected = resources.detectResources({
    detectors: [resources.processDetector, resources.hostDetector, resources.envDetector],
  });
  const provider = new base.BasicTracerProvider({
    resource: resources.defaultResource().merge(defaults).merge(detected),
    spanProcessors: [new base.BatchSpanProcessor(exporter)],
  });
  if (!trace.setGlobalTracerProvider(provider)) {
    // The process registered its own SDK first: it keeps it, and toolhost's spans go there.
    await provider.shutdown();
    return undefined;
  }
  context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  return {
    exporter: `otlp ${protocol}`,
    flushWithin: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      await Promise.race([provider.forceFlush().catch(() => undefined), waited]);
      clearTimeout(timer);
    },
    shutdown: () => provider.shutdown(),
  };
}
