/**
 * The call a handler sees, read from the claim answer. The claim's text is read losslessly (big
 * integers and the model's key order survive), so the runner can recompute `arguments_digest` over
 * exactly what the server sent; handlers get the arguments as plain JavaScript too.
 */

import {
  compact,
  isJsonObject,
  isToolEffect,
  type JsonObject,
  type JsonValue,
  objectGet,
  type PlainJsonObject,
  parseJson,
  type ToolEffect,
} from "@toolhost/protocol";

/** A claimed tool call, as handlers, authorizers and reconcilers see it. */
export interface ToolCall {
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly bindingId: string;
  /** `write` (accept-before-side-effect, reconciliation) or `read` (may simply run again). */
  readonly effect: ToolEffect;
  /** The arguments as plain JavaScript (big integers become the nearest double; see argumentsJson). */
  readonly arguments: unknown;
  /** The arguments' exact compact JSON, as the model produced them. */
  readonly argumentsJson: string;
  /** `sha256:` of the arguments' canonical form (the runner checked it before accepting). */
  readonly argumentsDigest: string;
  /** The end user or account the run acts for: check the product's own permissions for it. */
  readonly subject: string;
  readonly agentId: string;
  readonly agentVersion: string;
  readonly toolsetId: string;
  readonly toolsetVersion: number;
  /** The call's deadline (ISO 8601); the server settles an unanswered call then. */
  readonly deadline: string;
  /** Send `accepted` before this (ISO 8601), or the claim lapses. */
  readonly acceptDeadline: string;
  /** The claim this executor holds the call under. */
  readonly claimId: string;
  /**
   * The call's W3C `traceparent` in the trace of the run that planned it, when the server sent one:
   * the runner's handler span is its child (docs/operations.md#traces).
   */
  readonly traceparent?: string;
}

/** A claim answer, read. */
export interface ClaimRead {
  readonly claimId: string;
  readonly grant: string;
  readonly replayed: boolean;
  readonly call: ToolCall;
  /** The claimed call object's compact text (what the journal keeps to rebuild `call`). */
  readonly callJson: string;
  /** The arguments exactly as received, for the digest check. */
  readonly argumentsValue: JsonValue;
}

/** A claim answer that does not have the documented shape. */
export class MalformedAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedAnswerError";
  }
}

/** Reads the text of a claim answer; throws MalformedAnswerError when a member is missing. */
export function readClaimAnswer(text: string): ClaimRead {
  const body = parseJson(text);
  if (!isJsonObject(body)) throw new MalformedAnswerError("the claim answer is not an object");
  const claimId = stringOf(body, "claim_id");
  const call = objectGet(body, "call");
  if (call === undefined || !isJsonObject(call)) throw new MalformedAnswerError("the claim answer has no call");
  const read = readCall(call, claimId);
  return {
    claimId,
    grant: stringOf(body, "grant"),
    replayed: objectGet(body, "replayed") === true,
    call: read.call,
    callJson: compact(call),
    argumentsValue: read.argumentsValue,
  };
}

/** Rebuilds the call from the journal's `callJson` and claim. */
export function callFromJournal(callJson: string, claimId: string): ToolCall {
  const call = parseJson(callJson);
  if (!isJsonObject(call)) throw new MalformedAnswerError("the journaled call is not an object");
  return readCall(call, claimId).call;
}

function readCall(call: JsonObject | PlainJsonObject, claimId: string): { call: ToolCall; argumentsValue: JsonValue } {
  const args = objectGet(call, "arguments");
  if (args === undefined) throw new MalformedAnswerError("the claimed call has no arguments");
  const effect = objectGet(call, "effect");
  if (!isToolEffect(effect)) throw new MalformedAnswerError("the claimed call has no valid effect");
  const version = Number(objectGet(call, "toolset_version"));
  const argumentsJson = compact(args);
  const traceparent = objectGet(call, "traceparent");
  return {
    argumentsValue: args,
    call: {
      runId: stringOf(call, "run_id"),
      callId: stringOf(call, "call_id"),
      toolName: stringOf(call, "tool_name"),
      bindingId: stringOf(call, "binding_id"),
      effect,
      arguments: JSON.parse(argumentsJson) as unknown,
      argumentsJson,
      argumentsDigest: stringOf(call, "arguments_digest"),
      subject: stringOf(call, "subject"),
      agentId: stringOf(call, "agent_id"),
      agentVersion: stringOf(call, "agent_version"),
      toolsetId: stringOf(call, "toolset_id"),
      toolsetVersion: version,
      deadline: stringOf(call, "deadline"),
      acceptDeadline: stringOf(call, "accept_deadline"),
      claimId,
      ...(typeof traceparent === "string" ? { traceparent } : {}),
    },
  };
}

function stringOf(object: JsonObject | PlainJsonObject, member: string): string {
  const value = objectGet(object, member);
  if (typeof value !== "string") throw new MalformedAnswerError(`${member} is missing or not a string`);
  return value;
}
