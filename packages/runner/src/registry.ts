/**
 * The tools a runner serves: each tool's handler, effect, authorization hook, result type and
 * concurrency, and the reconciliation resolvers products register with `onReconcile`.
 */

import { isResultType, isToolEffect, type ResultType, TOOL_NAME_PATTERN, type ToolEffect } from "@toolhost/protocol";
import { EXECUTOR_TOOL_NAMES_MAX } from "@toolhost/protocol/wire";
import { RunnerError } from "./errors.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolContext } from "./tool-context.js";

/** A tool's business logic: answer the result (any JSON value), or throw. */
export type ToolHandler = (call: ToolCall, ctx: ToolContext) => unknown;

/** How a tool is registered. */
export interface RegisterOptions {
  /** `write` (default on the server): accept-before-side-effect, reconciliation on unknown outcomes. `read`: may run again. */
  readonly effect: ToolEffect;
  /** The product's own per-call permission check (subject, resource, business rules); false reports `failed`. */
  readonly authorize?: (call: ToolCall) => boolean | Promise<boolean>;
  /** How the model sees results: `json` (the server's default when omitted), `multimodal`, `submission`, `opaque`. */
  readonly resultType?: ResultType;
  /** Most handlers of this tool at once (default: the runner's maxConcurrencyPerTool). */
  readonly maxConcurrency?: number;
}

/** What a reconciliation resolver decides. */
export type ReconcileOutcome =
  /** The side effect happened: its result. */
  | { readonly kind: "completed"; readonly result: unknown; readonly resultType?: ResultType }
  /** It did not happen, or failed: the error the model sees (a BusinessError fits). */
  | {
      readonly kind: "failed";
      readonly error: { readonly code: string; readonly message: string; readonly details?: Record<string, unknown> };
    }
  /** It was cancelled. */
  | { readonly kind: "cancelled"; readonly message?: string };

/**
 * Finds out what happened to a call whose outcome is unknown (typically by looking the operation key
 * up in the product's store). Answer null when it cannot tell yet: it is asked again later.
 */
export type ReconcileResolver = (
  call: ToolCall,
  operationKey: string,
) => ReconcileOutcome | null | undefined | Promise<ReconcileOutcome | null | undefined>;

/** One registered tool. */
export interface ToolRegistration {
  readonly name: string;
  readonly handler: ToolHandler;
  readonly effect: ToolEffect;
  readonly authorize: ((call: ToolCall) => boolean | Promise<boolean>) | undefined;
  readonly resultType: ResultType | undefined;
  readonly maxConcurrency: number;
}

/** The registered tools and resolvers. */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolRegistration>();
  readonly #resolvers = new Map<string, ReconcileResolver>();

  constructor(private readonly defaultConcurrency: number) {}

  /** Registers `name`; throws RunnerError `invalid_registration` on a duplicate or a bad option. */
  register(name: string, handler: ToolHandler, options: RegisterOptions): void {
    const fail = (message: string): never => {
      throw new RunnerError("invalid_registration", `tool ${JSON.stringify(name)}: ${message}`, { tool: name });
    };
    if (typeof name !== "string" || name.length === 0) fail("the name must be a non-empty string");
    if (this.#tools.has(name)) fail("is already registered");
    if (typeof handler !== "function") fail("the handler must be a function");
    if (typeof options !== "object" || options === null || !isToolEffect(options.effect)) {
      fail('options.effect must be "write" or "read"');
    }
    if (options.resultType !== undefined && !isResultType(options.resultType))
      fail("options.resultType is not a result type");
    if (options.authorize !== undefined && typeof options.authorize !== "function")
      fail("options.authorize must be a function");
    const max = options.maxConcurrency ?? this.defaultConcurrency;
    if (!Number.isSafeInteger(max) || max < 1) fail("options.maxConcurrency must be a positive integer");
    this.#tools.set(name, {
      name,
      handler,
      effect: options.effect,
      authorize: options.authorize,
      resultType: options.resultType,
      maxConcurrency: max,
    });
  }

  /** Registers the reconciliation resolver of `name`; throws on a duplicate. */
  onReconcile(name: string, resolver: ReconcileResolver): void {
    if (typeof resolver !== "function") {
      throw new RunnerError("invalid_registration", `tool ${JSON.stringify(name)}: the resolver must be a function`);
    }
    if (this.#resolvers.has(name)) {
      throw new RunnerError("invalid_registration", `tool ${JSON.stringify(name)}: a resolver is already registered`);
    }
    this.#resolvers.set(name, resolver);
  }

  /** The tool's registration. */
  get(name: string): ToolRegistration | undefined {
    return this.#tools.get(name);
  }

  /** The tool's resolver. */
  resolver(name: string): ReconcileResolver | undefined {
    return this.#resolvers.get(name);
  }

  /**
   * The names `connect` declares: the registered tools, in registration order, leaving out names no
   * tool can have (they never match a call); null when there are more than the server takes (then
   * the connection declares none and is assumed to serve every tool).
   */
  declaredNames(): readonly string[] | null {
    const names = [...this.#tools.keys()].filter((name) => TOOL_NAME_PATTERN.test(name));
    return names.length > EXECUTOR_TOOL_NAMES_MAX ? null : names;
  }

  /** Registered tools and their effects (for claim verification). */
  effects(): ReadonlyMap<string, ToolEffect> {
    return new Map([...this.#tools.values()].map((tool) => [tool.name, tool.effect]));
  }
}
