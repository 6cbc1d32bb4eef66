/**
 * The executor commands of the protocol model: connect (the executor's own key, or — a takeover — the
 * other key), heartbeat, detach, claim (on the current connection, a superseded one, or the other
 * executor's), and impostor requests: another key acting as the executor with its current
 * connection ID, as anyone could read it from diagnostics. A request with a key that did not open the
 * executor's connection must never succeed and must change nothing.
 */

import type fc from "fast-check";
import type { Answer } from "../http/http-harness.js";
import { checkWorld } from "./protocol-model-checks.js";
import { applyNewClaim, candidatesOf, predictClaim } from "./protocol-model-predictions.js";
import {
  ACCEPT_WINDOW_MS,
  type ExecName,
  isLive,
  type KeyName,
  LEASE_TTL_MS,
  otherExec,
  otherKey,
  type ProtocolModel,
} from "./protocol-model-state.js";
import { releaseClaimsOf } from "./protocol-model-sweeps.js";
import { expectAnswer, fail, iso, type ModelReal, note, send } from "./protocol-model-world.js";

type Command = fc.AsyncCommand<ProtocolModel, ModelReal>;

/** Fails unless a request from a key that does not own the executor was refused: 403 `executor_key_mismatch`. */
export function expectRefusedImpostor(real: ModelReal, answer: Answer, what: string): void {
  if (answer.status < 300) {
    fail(real, `${what} came with a key that did not open the executor's connection, and succeeded: ${answer.text}`);
  }
  if (answer.status !== 403 || answer.body?.error?.code !== "executor_key_mismatch") {
    fail(real, `${what}: expected 403 executor_key_mismatch, got ${answer.status} ${answer.text}`);
  }
}

/**
 * Connects `exec` with `key`: a new connection (epoch + 1), live for a lease, the older one fenced.
 * With another key than the owner's, the executor belongs to that key from then on (its binding
 * scope reaches the executor's bindings: both keys are unrestricted). Each connect declares its
 * `toolNames` afresh (null: none).
 */
export async function connectAs(
  model: ProtocolModel,
  real: ModelReal,
  exec: ExecName,
  key: KeyName,
  toolNames: readonly string[] | null = null,
): Promise<void> {
  const executor = model.executors[exec];
  const what = `connect of ${exec} with key ${key}`;
  const body = {
    executor_id: executor.id,
    binding_ids: [real.bindingId],
    ...(toolNames === null ? {} : { tool_names: toolNames }),
  };
  const answer = await send(real, "POST", "/v1/executors/connect", real.keys[key], body);
  const connection = expectAnswer(real, answer, 200, what);
  if (connection.epoch !== executor.epoch + 1 || connection.lease_ttl_ms !== LEASE_TTL_MS) {
    fail(real, `${what}: expected epoch ${executor.epoch + 1} and lease_ttl_ms ${LEASE_TTL_MS}, got ${answer.text}`);
  }
  executor.older.push(executor.connectionId);
  executor.connectionId = connection.connection_id;
  executor.epoch = connection.epoch;
  executor.owner = key;
  executor.byKey[key] = connection.connection_id;
  executor.online = true;
  executor.leaseExpiresMs = model.nowMs + LEASE_TTL_MS;
  executor.toolNames = toolNames;
}

/** How a connect with the same executor ID comes. */
export type Reconnect =
  /** The executor's process restarts with its own key. */
  | "restart"
  /** Another process takes the executor ID over with the other key (no journal: no grants). */
  | "takeover"
  /** The executor's process restarts with the other key (key rotation), keeping its journal: claims, grants, receipts. */
  | "rotation";

/**
 * Connects `exec` again: a restart, a takeover by the other key, or a key rotation; `writesOnly`
 * declares `tool_names: ["tasks.write"]` (batched claims then leave compensations to others).
 */
export class ConnectCommand implements Command {
  constructor(
    readonly exec: ExecName,
    readonly how: Reconnect,
    readonly writesOnly = false,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const executor = model.executors[this.exec];
    const from = executor.owner;
    const key = this.how === "restart" ? from : otherKey(from);
    note(real, `${this}`);
    await connectAs(model, real, this.exec, key, this.writesOnly ? ["tasks.write"] : null);
    if (this.how === "rotation") {
      // The same process, restarted with the new key: what it held, it holds under that key.
      for (const claim of model.claims) if (claim.exec === this.exec && claim.key === from) claim.key = key;
      for (const confirmation of model.confirmations) {
        if (confirmation.exec === this.exec && confirmation.key === from) confirmation.key = key;
      }
    }
    await checkWorld(model, real);
  }

  toString(): string {
    const tools = this.writesOnly ? ", serving tasks.write only" : "";
    return `connect(${this.exec}${this.how === "restart" ? "" : `, ${this.how} with the other key`}${tools})`;
  }
}

/** A heartbeat of `exec`'s process (the key that opened its connection). */
export class HeartbeatCommand implements Command {
  constructor(readonly exec: ExecName) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const executor = model.executors[this.exec];
    note(real, `${this}`);
    const path = `/v1/executors/${executor.id}/heartbeat`;
    const answer = await send(real, "POST", path, real.keys[executor.owner], { connection_id: executor.connectionId });
    if (!isLive(model, this.exec)) {
      if (answer.status !== 409 || answer.body?.error?.code !== "connection_offline") {
        fail(real, `${this}: expected 409 connection_offline, got ${answer.status} ${answer.text}`);
      }
    } else {
      const body = expectAnswer(real, answer, 200, `${this}`);
      executor.leaseExpiresMs = model.nowMs + LEASE_TTL_MS;
      if (body.lease_expires_at !== iso(executor.leaseExpiresMs)) {
        fail(real, `${this}: expected lease_expires_at ${iso(executor.leaseExpiresMs)}, got ${answer.text}`);
      }
      expectSameIds(real, `${this}: cancellations`, body.cancellations, cancellationsOf(model, this.exec));
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `heartbeat(${this.exec})`;
  }
}

/** The calls `exec` holds (claimed, accepted or reconciliation required) whose business cancel was asked. */
export function cancellationsOf(model: ProtocolModel, exec: ExecName): string[] {
  const held = ["claimed", "accepted", "reconciliation_required"];
  return model.calls
    .filter((call) => call.cancelRequested && call.claim?.exec === exec && held.includes(call.status))
    .map((call) => call.callId);
}

/** Fails unless the wire list `items` names exactly the calls `expected` (in any order). */
export function expectSameIds(
  real: ModelReal,
  what: string,
  items: Array<{ call_id: string }>,
  expected: string[],
): void {
  const got = items.map((item) => item.call_id).sort();
  if (JSON.stringify(got) !== JSON.stringify([...expected].sort())) {
    fail(real, `${what}: expected ${JSON.stringify([...expected].sort())}, got ${JSON.stringify(got)}`);
  }
}

/** `exec`'s process asks for candidates (no wait): exactly the claimable calls, and its business cancellations. */
export class PendingCommand implements Command {
  constructor(readonly exec: ExecName) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const executor = model.executors[this.exec];
    note(real, `${this}`);
    const path = `/v1/executors/${executor.id}/pending?connection_id=${executor.connectionId}&limit=200&wait_ms=0`;
    const answer = await send(real, "GET", path, real.keys[executor.owner]);
    if (!isLive(model, this.exec)) {
      if (answer.status !== 409 || answer.body?.error?.code !== "connection_offline") {
        fail(real, `${this}: expected 409 connection_offline, got ${answer.status} ${answer.text}`);
      }
    } else {
      const body = expectAnswer(real, answer, 200, `${this}`);
      const candidates = candidatesOf(model).map((call) => call.callId);
      expectSameIds(real, `${this}: candidates`, body.data, candidates);
      expectSameIds(real, `${this}: cancellations`, body.cancellations, cancellationsOf(model, this.exec));
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `pending(${this.exec})`;
  }
}

/** `exec`'s process detaches: offline, its claimed calls released (cancelled when a business cancel was asked). */
export class DetachCommand implements Command {
  constructor(readonly exec: ExecName) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const executor = model.executors[this.exec];
    note(real, `${this}`);
    const path = `/v1/executors/${executor.id}/disconnect`;
    const answer = await send(real, "POST", path, real.keys[executor.owner], { connection_id: executor.connectionId });
    const body = expectAnswer(real, answer, 200, `${this}`);
    const released = executor.online ? releaseClaimsOf(model, this.exec) : [];
    executor.online = false;
    if (JSON.stringify([...body.released].sort()) !== JSON.stringify([...released].sort())) {
      fail(real, `${this}: expected released ${JSON.stringify(released)}, got ${answer.text}`);
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `detach(${this.exec})`;
  }
}

/**
 * Which connection ID a claim names: the current one (connecting again first when it is offline, as
 * ToolRunner does), the current one as it is (maybe offline), a superseded one, or the other executor's.
 */
export type ClaimConnection = "current" | "as_is" | "superseded" | "other_executor";

/** A claim by `exec`'s process, or (`impostor`) by the other key with `exec`'s current connection ID. */
export class ClaimCommand implements Command {
  constructor(
    readonly exec: ExecName,
    readonly callIndex: number,
    readonly connection: ClaimConnection,
    readonly impostor: boolean,
  ) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.calls.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const call = model.calls[model.calls.length - 1 - (this.callIndex % model.calls.length)];
    if (call === undefined) throw new Error("model: no call to claim");
    const executor = model.executors[this.exec];
    const key = this.impostor ? otherKey(executor.owner) : executor.owner;
    note(real, `${this} → ${call.callId}`);
    if (this.connection === "current" && !this.impostor && !isLive(model, this.exec)) {
      await connectAs(model, real, this.exec, key);
    }
    const connectionId =
      this.connection === "other_executor"
        ? model.executors[otherExec(this.exec)].connectionId
        : this.connection === "superseded"
          ? (executor.older.at(-1) ?? executor.connectionId)
          : executor.connectionId;
    const prediction = predictClaim(model, call, this.exec, key, connectionId);
    const path = `/v1/runs/${call.runId}/tool-calls/${call.callId}/claim`;
    const answer = await send(real, "POST", path, real.keys[key], {
      executor_id: executor.id,
      connection_id: connectionId,
    });
    const what = `claim of ${call.callId} by executor ${this.exec} with key ${key}`;
    if (prediction.type === "refuse") {
      if (prediction.wrongKey === true) expectRefusedImpostor(real, answer, what);
      if (answer.status !== prediction.status || answer.body?.error?.code !== prediction.code) {
        fail(real, `${what}: expected ${prediction.status} ${prediction.code}, got ${answer.status} ${answer.text}`);
      }
    } else {
      const body = expectAnswer(real, answer, 200, what);
      if (prediction.type === "new") {
        if (body.replayed !== false || model.calls.some((other) => other.claim?.claimId === body.claim_id)) {
          fail(real, `${what}: expected a new claim, got ${answer.text}`);
        }
        if (
          body.call?.deadline !== iso(call.deadlineMs) ||
          body.call?.accept_deadline !== iso(model.nowMs + ACCEPT_WINDOW_MS)
        ) {
          fail(
            real,
            `${what}: expected deadline ${iso(call.deadlineMs)} and accept_deadline ${iso(model.nowMs + ACCEPT_WINDOW_MS)}, got ${answer.text}`,
          );
        }
        applyNewClaim(model, call, this.exec, key, body.claim_id);
        model.claims.push({
          claimId: body.claim_id,
          grant: body.grant,
          callId: call.callId,
          runId: call.runId,
          exec: this.exec,
          key,
          signedFor: key,
        });
      } else {
        const known = model.claims.find((claim) => claim.claimId === prediction.claimId && claim.signedFor === key);
        if (body.replayed !== true || body.claim_id !== prediction.claimId || body.grant !== known?.grant) {
          fail(
            real,
            `${what}: expected claim ${prediction.claimId} again with its grant and replayed: true, got ${answer.text}`,
          );
        }
      }
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `claim(${this.exec}, call#${this.callIndex}, ${this.connection} connection${this.impostor ? ", by the other key" : ""})`;
  }
}

/** What an impostor request tries. */
export type ImpostorRequest = "heartbeat" | "pending" | "report" | "disconnect" | "receipt" | "receipt_batch";

/** Another key acting as `exec` with its current connection ID: always refused, nothing changes. */
export class ImpostorCommand implements Command {
  constructor(
    readonly exec: ExecName,
    readonly request: ImpostorRequest,
    readonly claimIndex: number,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const executor = model.executors[this.exec];
    const key = real.keys[otherKey(executor.owner)];
    const connection_id = executor.connectionId;
    const base = `/v1/executors/${executor.id}`;
    const claims = model.claims.filter((claim) => claim.exec === this.exec);
    const claim = claims[this.claimIndex % Math.max(claims.length, 1)];
    const call = model.calls[this.claimIndex % model.calls.length];
    note(real, `${this}`);
    let answer: Answer;
    if ((this.request === "receipt" || this.request === "receipt_batch") && claim !== undefined) {
      const body = {
        receipt_id: `impostor-${model.nextReceipt++}`,
        executor_id: executor.id,
        claim_id: claim.claimId,
        grant: claim.grant,
        kind: "accepted",
      };
      answer =
        this.request === "receipt"
          ? await send(real, "POST", `/v1/runs/${claim.runId}/tool-calls/${claim.callId}/receipts`, key, body)
          : await send(real, "POST", `${base}/receipts`, key, {
              receipts: [{ run_id: claim.runId, call_id: claim.callId, receipt: body }],
            });
    } else if (this.request === "pending") {
      answer = await send(real, "GET", `${base}/pending?connection_id=${connection_id}&limit=10`, key);
    } else if (this.request === "report" && call !== undefined) {
      const body = { connection_id, calls: [{ call_id: call.callId, state: "pending_delivery" }] };
      answer = await send(real, "POST", `${base}/calls/report`, key, body);
    } else if (this.request === "disconnect") {
      answer = await send(real, "POST", `${base}/disconnect`, key, { connection_id });
    } else {
      answer = await send(real, "POST", `${base}/heartbeat`, key, { connection_id });
    }
    expectRefusedImpostor(real, answer, `${this.request} as executor ${this.exec} by the other key`);
    await checkWorld(model, real);
  }

  toString(): string {
    const claim = this.request === "receipt" || this.request === "receipt_batch" ? `, claim#${this.claimIndex}` : "";
    return `impostor(${this.request} as ${this.exec}${claim})`;
  }
}
