/**
 * The batched claim of the protocol model: `GET …/pending?claim=N` (docs/executors.md, Batched
 * executors). The model predicts which calls are claimed — the page's oldest N candidates of the
 * tools the connection serves, as documented — and each claim must be what the claim route answers for a new claim: a fresh claim ID
 * (no call claimed twice), the call's deadline, a new accept window, its arguments as stored. The
 * candidates not claimed stay in `data`, bare. With `replayFirst`, the claim route is asked for the
 * first claim again and must answer it byte for byte, `replayed: true`: the grant is the claim route's.
 * With `wait`, when nothing is claimable the poll waits (long-poll) while a run starts: the run's calls
 * must wake it, and it claims them as above (or, only once its whole wait ran out, answers nothing).
 */

import { argumentsDigest, parseJson } from "@toolhost/protocol";
import type fc from "fast-check";
import type { Answer } from "../http/http-harness.js";
import { checkWorld } from "./protocol-model-checks.js";
import {
  cancellationsOf,
  connectAs,
  expectRefusedImpostor,
  expectSameIds,
} from "./protocol-model-executor-commands.js";
import { applyNewClaim, predictPendingClaims } from "./protocol-model-predictions.js";
import { MAX_RUNS } from "./protocol-model-run-commands.js";
import {
  ACCEPT_WINDOW_MS,
  type ExecName,
  isLive,
  type KeyName,
  type ModelCall,
  otherKey,
  type ProtocolModel,
} from "./protocol-model-state.js";
import { expectAnswer, fail, iso, type ModelReal, note, send, startModelRun } from "./protocol-model-world.js";

type Command = fc.AsyncCommand<ProtocolModel, ModelReal>;

/** The long-poll's `wait_ms` when the command waits for a run to start (a real-time bound, never reached when woken). */
const WAIT_MS = 20_000;

/** Which connection ID the poll names: the current one (connecting again first when offline), the current one as it is, a superseded one. */
export type PollConnection = "current" | "as_is" | "superseded";

/** One entry of `claims`, as read. */
interface ClaimEntry {
  claim_id: string;
  grant: string;
  replayed: boolean;
  call: Record<string, unknown> & { run_id: string; call_id: string; arguments: unknown };
}

/** `exec`'s process (or, `impostor`, the other key with its connection ID) polls with `claim=N`, no wait. */
export class PendingClaimCommand implements Command {
  constructor(
    readonly exec: ExecName,
    readonly claimMax: number,
    readonly limit: number,
    readonly connection: PollConnection,
    readonly impostor: boolean,
    readonly replayFirst: boolean,
    readonly wait = false,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: ProtocolModel, real: ModelReal): Promise<void> {
    const executor = model.executors[this.exec];
    const key = this.impostor ? otherKey(executor.owner) : executor.owner;
    note(real, `${this}`);
    if (this.connection === "current" && !this.impostor && !isLive(model, this.exec)) {
      await connectAs(model, real, this.exec, key);
    }
    const connectionId =
      this.connection === "superseded" ? (executor.older.at(-1) ?? executor.connectionId) : executor.connectionId;
    const predict = () => predictPendingClaims(model, this.exec, key, connectionId, this.limit, this.claimMax);
    let prediction = predict();
    const waits =
      this.wait && prediction.type === "claims" && prediction.page.length === 0 && model.runs.length < MAX_RUNS;
    const query = `connection_id=${connectionId}&limit=${this.limit}&wait_ms=${waits ? WAIT_MS : 0}&claim=${this.claimMax}`;
    const path = `/v1/executors/${executor.id}/pending?${query}`;
    const what = `pending with claim=${this.claimMax} by executor ${this.exec} with key ${key}`;
    let answer: Answer;
    if (waits) {
      const started = performance.now();
      const polled = send(real, "GET", path, real.keys[key]);
      note(real, "  (a run starts while the poll waits)");
      await startModelRun(model, real);
      answer = await polled;
      prediction = predict();
      if (answer.status === 200 && answer.body?.claims?.length === 0 && answer.body?.data?.length === 0) {
        // Not woken: allowed only once the whole wait ran out (never on timing: it can only take longer).
        if (performance.now() - started < WAIT_MS) fail(real, `${what}: answered nothing before its wait ran out`);
        await checkWorld(model, real);
        return;
      }
    } else {
      answer = await send(real, "GET", path, real.keys[key]);
    }
    if (prediction.type === "refuse") {
      if (prediction.wrongKey === true) expectRefusedImpostor(real, answer, what);
      if (answer.status !== prediction.status || answer.body?.error?.code !== prediction.code) {
        fail(real, `${what}: expected ${prediction.status} ${prediction.code}, got ${answer.status} ${answer.text}`);
      }
      await checkWorld(model, real);
      return;
    }
    const body = expectAnswer(real, answer, 200, what);
    const claims: ClaimEntry[] = Array.isArray(body.claims)
      ? body.claims
      : fail(real, `${what}: no claims in ${answer.text}`);
    const got = claims.map((claim) => claim.call?.call_id);
    const expected = prediction.claimed.map((call) => call.callId);
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      fail(real, `${what}: expected the page's oldest claims ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
    }
    const rest = prediction.page.filter((call) => !expected.includes(call.callId)).map((call) => call.callId);
    const data: Array<Record<string, unknown> & { call_id: string }> = body.data;
    if (JSON.stringify(data.map((item) => item.call_id)) !== JSON.stringify(rest)) {
      fail(real, `${what}: expected the candidates not claimed, oldest first, ${JSON.stringify(rest)} in data`);
    }
    if (data.some((item) => "arguments" in item || "grant" in item))
      fail(real, `${what}: a bare candidate carries more`);
    if ((body.next_cursor !== null) !== prediction.more) {
      fail(
        real,
        `${what}: expected ${prediction.more ? "a" : "no"} next_cursor, got ${JSON.stringify(body.next_cursor)}`,
      );
    }
    expectSameIds(real, `${what}: cancellations`, body.cancellations, cancellationsOf(model, this.exec));
    for (const [index, call] of prediction.claimed.entries()) {
      this.judgeClaim(model, real, what, claims[index] as ClaimEntry, call, key);
    }
    const first = claims[0];
    if (this.replayFirst && first !== undefined) await this.replayThroughClaimRoute(model, real, key, first);
    await checkWorld(model, real);
  }

  /** Checks one entry of `claims` as the claim route's answer for a new claim of `call`, and records it. */
  private judgeClaim(
    model: ProtocolModel,
    real: ModelReal,
    what: string,
    entry: ClaimEntry,
    call: ModelCall,
    key: KeyName,
  ): void {
    const taken = model.calls.some((other) => other.claim?.claimId === entry.claim_id);
    if (entry.replayed !== false || typeof entry.claim_id !== "string" || taken) {
      fail(
        real,
        `${what}: expected a new claim of ${call.callId} under a claim ID nobody holds, got ${JSON.stringify(entry)}`,
      );
    }
    if (model.claims.some((claim) => claim.claimId === entry.claim_id)) {
      fail(real, `${what}: claim ID ${entry.claim_id} was answered before, for another claim`);
    }
    if (typeof entry.grant !== "string" || entry.grant.length === 0) fail(real, `${what}: no grant for ${call.callId}`);
    const acceptDeadline = iso(model.nowMs + ACCEPT_WINDOW_MS);
    if (
      entry.call.run_id !== call.runId ||
      entry.call.deadline !== iso(call.deadlineMs) ||
      entry.call.accept_deadline !== acceptDeadline
    ) {
      fail(
        real,
        `${what}: expected ${call.callId} of ${call.runId} with deadline ${iso(call.deadlineMs)} and accept_deadline ${acceptDeadline}, got ${JSON.stringify(entry.call)}`,
      );
    }
    // The arguments as stored: their digest is the one the call lists.
    const args = entry.call.arguments;
    const digest = args === undefined ? undefined : argumentsDigest(parseJson(JSON.stringify(args)));
    if (digest !== call.argumentsDigest || entry.call.arguments_digest !== call.argumentsDigest) {
      fail(
        real,
        `${what}: expected the arguments of ${call.callId} (${call.argumentsDigest}), got ${JSON.stringify(entry.call)}`,
      );
    }
    applyNewClaim(model, call, this.exec, key, entry.claim_id);
    model.claims.push({
      claimId: entry.claim_id,
      grant: entry.grant,
      callId: call.callId,
      runId: call.runId,
      exec: this.exec,
      key,
      signedFor: key,
    });
  }

  /** The claim route asked for a batched claim again: the same answer, `replayed: true`. */
  private async replayThroughClaimRoute(
    model: ProtocolModel,
    real: ModelReal,
    key: KeyName,
    entry: ClaimEntry,
  ): Promise<void> {
    const executor = model.executors[this.exec];
    const path = `/v1/runs/${entry.call.run_id}/tool-calls/${entry.call.call_id}/claim`;
    const body = { executor_id: executor.id, connection_id: executor.connectionId };
    const answer = await send(real, "POST", path, real.keys[key], body);
    const what = `the claim route asked again for batched claim ${entry.claim_id}`;
    const again = expectAnswer(real, answer, 200, what);
    if (JSON.stringify(again) !== JSON.stringify({ ...entry, replayed: true })) {
      fail(real, `${what}: expected ${JSON.stringify({ ...entry, replayed: true })}, got ${answer.text}`);
    }
  }

  toString(): string {
    const how = this.connection === "current" ? "" : `, ${this.connection} connection`;
    const page = this.limit === 200 ? "" : `, limit ${this.limit}`;
    const who = this.impostor ? ", by the other key" : "";
    const wait = this.wait ? ", waiting for a run" : "";
    return `pending_claim(${this.exec}, claim=${this.claimMax}${page}${how}${who}${wait}${this.replayFirst ? ", replayed through claim" : ""})`;
  }
}
