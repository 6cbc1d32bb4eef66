/**
 * The product-side checks of a claimed call before it is accepted (pure). The server already checked
 * the credential's scopes; the executor still checks that the arguments are the ones the run produced
 * (it recomputes `arguments_digest`), that the call is one it serves (tool, binding, effect), and that
 * the agent is one it works for. The product's own permission check (`authorize`) comes after these.
 */

import { argumentsDigest, type JsonValue, type ToolEffect } from "@toolhost/protocol";
import type { ToolCall } from "../tool-call.js";

/** Why a claimed call was refused before accepting. */
export const CLAIM_REFUSALS = {
  /** The recomputed digest differs from `arguments_digest`: the arguments are not the run's. */
  arguments_digest_mismatch: "arguments_digest_mismatch",
  /** The call names a tool this executor did not register. */
  unknown_tool: "unknown_tool",
  /** The call's binding is not one this executor serves. */
  binding_not_served: "binding_not_served",
  /** The tool is `write` on the server but registered `read` here: running it as a read would skip reconciliation. */
  effect_mismatch: "effect_mismatch",
  /** The run's agent is not in the executor's `agentIds`. */
  agent_not_allowed: "agent_not_allowed",
  /** The product's `authorize` hook answered false. */
  not_authorized: "not_authorized",
} as const;

/** One refusal code. */
export type ClaimRefusal = keyof typeof CLAIM_REFUSALS;

/**
 * What a refusal leads to. `fail`: accept, then report `failed` without running anything — the call
 * is wrong for everyone (tampered arguments) or the product said no. `decline`: never accept and let
 * the claim lapse, so another executor that serves the call can take it (a configuration mismatch
 * here says nothing about the call itself).
 */
export const REFUSAL_ACTIONS: Readonly<Record<ClaimRefusal, "fail" | "decline">> = {
  arguments_digest_mismatch: "fail",
  not_authorized: "fail",
  unknown_tool: "decline",
  binding_not_served: "decline",
  effect_mismatch: "decline",
  agent_not_allowed: "decline",
};

/** What the executor serves, as the checks need it. */
export interface ClaimPolicy {
  /** Registered tools and their effects. */
  readonly tools: ReadonlyMap<string, ToolEffect>;
  readonly bindingIds: readonly string[];
  /** Accepted agents; null accepts every agent. */
  readonly agentIds: ReadonlySet<string> | null;
}

/** The verdict on a claimed call. */
export type ClaimVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: ClaimRefusal; readonly message: string };

/** Checks `call` (its arguments exactly as received in `argumentsValue`) against `policy`. */
export function verifyClaim(call: ToolCall, argumentsValue: JsonValue, policy: ClaimPolicy): ClaimVerdict {
  const registered = policy.tools.get(call.toolName);
  if (registered === undefined) return refuse("unknown_tool", `tool ${call.toolName} is not registered here`);
  if (!policy.bindingIds.includes(call.bindingId)) {
    return refuse("binding_not_served", `binding ${call.bindingId} is not served by this executor`);
  }
  if (call.effect === "write" && registered === "read") {
    return refuse("effect_mismatch", `tool ${call.toolName} is a write tool on the server but registered as read`);
  }
  if (policy.agentIds !== null && !policy.agentIds.has(call.agentId)) {
    return refuse("agent_not_allowed", `agent ${call.agentId} is not served by this executor`);
  }
  const digest = argumentsDigest(argumentsValue);
  if (digest !== call.argumentsDigest) {
    return refuse("arguments_digest_mismatch", "the arguments do not match their arguments_digest");
  }
  return { ok: true };
}

function refuse(code: ClaimRefusal, message: string): ClaimVerdict {
  return { ok: false, code, message };
}
