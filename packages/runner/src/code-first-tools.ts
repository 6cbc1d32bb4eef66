/**
 * Code-first tools: a tool is declared once, in code — its definition (name, description, TypeBox
 * input schema, effect, timeout, result budget) next to its handler, whose arguments are typed from
 * the schema. The runner registers the handler and can publish the definitions as a toolset version
 * (`runner.publishToolset()`, `toolhost tools sync`), so the server's toolset and the code agree.
 */

import type { ResultType, ToolEffect } from "@toolhost/protocol";
import type { ToolInput } from "@toolhost/protocol/wire";
import type { Static, TSchema } from "typebox";
import { RunnerError } from "./errors.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolContext } from "./tool-context.js";

/** A code-first tool's definition: what the toolset version says, plus how the runner serves it. */
export interface ToolDefinition<Schema extends TSchema = TSchema> {
  /** Unique within the toolset: 1–128 of `A–Z a–z 0–9 _ . -`. */
  readonly name: string;
  /** Shown to the model. */
  readonly description?: string;
  /** The arguments' JSON Schema, as a TypeBox schema (`Type.Object({...})`): the handler's arguments are typed from it. */
  readonly inputSchema: Schema;
  /** `write` (accept before the side effect, reconciliation) or `read`. */
  readonly effect: ToolEffect;
  /** The call's timeout in milliseconds (server default when omitted). */
  readonly timeoutMs?: number;
  /** Bytes of compact JSON of a result the model sees (server default when omitted). */
  readonly maxResultContextBytes?: number;
  /** The binding the tool runs on; default the runner's only binding (required when it serves several). */
  readonly bindingId?: string;
  /** How the model sees results (the server's default `json` when omitted). */
  readonly resultType?: ResultType;
  /** The product's own per-call permission check; false reports `failed`. */
  // A method signature, so tools of any schema fit a list of CodeFirstTool (bivariant parameters).
  authorize?(call: TypedToolCall<Static<Schema>>): boolean | Promise<boolean>;
  /** Most handlers of this tool at once (default: the runner's maxConcurrencyPerTool). */
  readonly maxConcurrency?: number;
}

/** A tool call whose arguments have the type of its tool's input schema (the server checked them against it). */
export type TypedToolCall<Arguments> = Omit<ToolCall, "arguments"> & { readonly arguments: Arguments };

/** A code-first tool's handler: answer the result (any JSON value), or throw. */
export type TypedToolHandler<Arguments> = (call: TypedToolCall<Arguments>, ctx: ToolContext) => unknown;

/** A code-first tool: its definition and its handler, declared once (`defineTool`), served by `runner.tools()`. */
export interface CodeFirstTool<Schema extends TSchema = TSchema> {
  readonly definition: ToolDefinition<Schema>;
  /** The handler (a method signature, so tools of any schema fit a list of CodeFirstTool). */
  handler(call: TypedToolCall<Static<Schema>>, ctx: ToolContext): unknown;
}

/**
 * Declares a code-first tool outside any runner, so a module can export its tools for both the
 * runner (`runner.tools(...)`) and `toolhost tools sync` (which publishes them without running them).
 */
export function defineTool<Schema extends TSchema>(
  definition: ToolDefinition<Schema>,
  handler: TypedToolHandler<Static<Schema>>,
): CodeFirstTool<Schema> {
  return { definition, handler };
}

/** The toolset version the definitions make, as `POST /v1/toolsets/{id}/versions` takes it. */
export function toolInputsOf(definitions: readonly ToolDefinition[], bindingIds: readonly string[]): ToolInput[] {
  return definitions.map((definition) => {
    const bindingId = definition.bindingId ?? (bindingIds.length === 1 ? bindingIds[0] : undefined);
    if (bindingId === undefined) {
      throw new RunnerError(
        "invalid_registration",
        `tool ${JSON.stringify(definition.name)}: bindingId is required when the runner serves several bindings`,
        { tool: definition.name },
      );
    }
    return {
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      binding_id: bindingId,
      // A plain JSON copy: TypeBox schemas may carry symbols and functions the wire has no use for.
      input_schema: JSON.parse(JSON.stringify(definition.inputSchema)) as Record<string, unknown>,
      effect: definition.effect,
      ...(definition.timeoutMs === undefined ? {} : { timeout_ms: definition.timeoutMs }),
      ...(definition.maxResultContextBytes === undefined
        ? {}
        : { max_result_context_bytes: definition.maxResultContextBytes }),
    };
  });
}
