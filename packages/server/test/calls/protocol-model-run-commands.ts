/**
 * The run-side commands of the protocol model: start a run, cancel a run, business-cancel a call,
 * compensate a completed call, move the clock (past a call's deadline, past a lease, or by a step;
 * the sweeps do the rest), and restart the server on the same database.
 */

import type fc from "fast-check";
import type { Answer } from "../http/http-harness.js";
import { admin } from "./calls-harness.js";
import { checkWorld, moveClock } from "./protocol-model-checks.js";
import { type ExecName, isFinal, moveCall, type ProtocolModel, UNDO_TIMEOUT_MS } from "./protocol-model-state.js";
import { expectAnswer, fail, iso, type ModelReal, note, send, startModelRun } from "./protocol-model-world.js";

type Command = fc.AsyncCommand<ProtocolModel, ModelReal>;

/** Most runs one world starts. */
export const MAX_RUNS = 4;

function expectError(real: ModelReal, status: number, code: string, answer: Answer, what: string): void {
  if (answer.status !== status || answer.body?.error?.code !== code) {
    fail(real, `${what}: expected ${status} ${code}, got ${answer.status} ${answer.text}`);
  }
}

/** Starts another run of the world's session (two more pending calls). */
export class StartRunCommand implements Command {
  check(model: Readonly<ProtocolModel>): boolean {
    return model.runs.length < MAX_RUNS;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    note(real, `${this}`);
    await startModelRun(model, real);
    await checkWorld(model, real);
  }

  toString(): string {
    return "start_run";
  }
}

/** Cancels a run: it ends, its pending and claimed calls are cancelled, accepted ones are left alone. */
export class RunCancelCommand implements Command {
  constructor(readonly runIndex: number) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.runs.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const run = model.runs[this.runIndex % model.runs.length];
    if (run === undefined) throw new Error("model: no run");
    note(real, `${this} → ${run.runId}`);
    const answer = await send(real, "POST", `/v1/runs/${run.runId}/cancel`, admin.key, {});
    if (run.status !== "waiting_for_tools") {
      expectError(real, 409, "run_terminated", answer, `${this}`);
    } else {
      expectAnswer(real, answer, 200, `${this}`);
      run.status = "cancelled";
      for (const call of model.calls) {
        if (call.runId !== run.runId || call.compensates !== null) continue;
        if (call.status === "pending" || call.status === "claimed") moveCall(model, call, "run_ended");
      }
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `run_cancel(run#${this.runIndex})`;
  }
}

/** A business-task cancel of one call: a pending call is cancelled at once, a held one asked to stop. */
export class BusinessCancelCommand implements Command {
  constructor(readonly callIndex: number) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.calls.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const call = model.calls[model.calls.length - 1 - (this.callIndex % model.calls.length)];
    if (call === undefined) throw new Error("model: no call");
    note(real, `${this} → ${call.callId}`);
    const answer = await send(real, "POST", `/v1/runs/${call.runId}/tool-calls/${call.callId}/cancel`, admin.key, {});
    if (isFinal(call)) {
      expectError(real, 409, "call_already_final", answer, `${this}`);
    } else {
      expectAnswer(real, answer, 200, `${this}`);
      call.cancelRequested = true;
      if (call.status === "pending") moveCall(model, call, "cancel_unclaimed");
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `business_cancel(call#${this.callIndex})`;
  }
}

/** Compensates a call: a new pending `tasks.undo` call for a completed write call, else 409 `not_compensable`. */
export class CompensateCommand implements Command {
  constructor(readonly callIndex: number) {}

  check(model: Readonly<ProtocolModel>): boolean {
    return model.calls.length > 0;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const call = model.calls[model.calls.length - 1 - (this.callIndex % model.calls.length)];
    if (call === undefined) throw new Error("model: no call");
    note(real, `${this} → ${call.callId}`);
    const path = `/v1/runs/${call.runId}/tool-calls/${call.callId}/compensate`;
    const answer = await send(real, "POST", path, admin.key, { tool_name: "tasks.undo", arguments: {} });
    if (call.status !== "completed") {
      expectError(real, 409, "not_compensable", answer, `${this}`);
    } else {
      const created = expectAnswer(real, answer, 201, `${this}`);
      if (
        created.status !== "pending" ||
        created.compensates !== call.callId ||
        created.created_at !== iso(model.nowMs) ||
        created.deadline !== iso(model.nowMs + UNDO_TIMEOUT_MS) ||
        typeof created.arguments_digest !== "string"
      ) {
        fail(
          real,
          `${this}: expected a pending call compensating ${call.callId}, created now and due at ${iso(model.nowMs + UNDO_TIMEOUT_MS)}, got ${answer.text}`,
        );
      }
      model.calls.push({
        callId: created.call_id,
        runId: call.runId,
        compensates: call.callId,
        status: "pending",
        createdAtMs: model.nowMs,
        deadlineMs: model.nowMs + UNDO_TIMEOUT_MS,
        argumentsDigest: created.arguments_digest,
        claim: null,
        cancelRequested: false,
      });
    }
    await checkWorld(model, real);
  }

  toString(): string {
    return `compensate(call#${this.callIndex})`;
  }
}

/** How far a clock move goes. */
export type ClockTarget =
  | { readonly to: "deadline"; readonly callIndex: number }
  | { readonly to: "lease"; readonly exec: ExecName }
  | { readonly to: "step"; readonly ms: number };

/** Moves the clock (just past a call's deadline, to a lease's lapse, or by a step); the sweeps follow. */
export class ClockCommand implements Command {
  constructor(readonly target: ClockTarget) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    let targetMs = model.nowMs + 1_000;
    if (this.target.to === "step") targetMs = model.nowMs + this.target.ms;
    if (this.target.to === "lease") targetMs = Math.max(targetMs, model.executors[this.target.exec].leaseExpiresMs);
    if (this.target.to === "deadline") {
      const open = model.calls.filter((call) => call.deadlineMs > model.nowMs);
      const call = open[this.target.callIndex % Math.max(open.length, 1)];
      if (call !== undefined) targetMs = call.deadlineMs;
    }
    note(real, `${this} → ${iso(targetMs)}`);
    await moveClock(model, real, targetMs);
    await checkWorld(model, real);
  }

  toString(): string {
    if (this.target.to === "deadline") return `clock(past the deadline of open call#${this.target.callIndex})`;
    if (this.target.to === "lease") return `clock(past the lease of ${this.target.exec})`;
    return `clock(+${this.target.ms} ms)`;
  }
}

/** Closes the server and starts a new one on the same database: nothing acknowledged may change. */
export class RestartCommand implements Command {
  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    note(real, `${this}`);
    await real.bench.server.restart();
    await checkWorld(model, real);
  }

  toString(): string {
    return "restart";
  }
}
