/**
 * One simulated executor of bench/protocol: its own keep-alive connection, the protocol's requests
 * (connect, pending long-poll, claim, receipts, heartbeat, disconnect) and the checks that every answer
 * is what the protocol promises. A wrong answer throws a BenchMismatch, which the suite reports as a
 * correctness failure; losing a claim race (409 `already_claimed`, `conflict` when the call changed
 * while being claimed, `run_terminated` when the winner already completed it) is expected with several
 * executors and is answered, not thrown.
 */

import { HttpConnection } from "./http-connection.mjs";

/** An answer the protocol does not allow here: a correctness failure, never a performance note. */
export class BenchMismatch extends Error {}

/** Throws a BenchMismatch unless `answer` has `status`; answers its parsed body. */
export function expectAnswer(what, answer, status) {
  if (answer.status !== status) {
    throw new BenchMismatch(`${what} answered ${answer.status} (expected ${status}): ${answer.text.slice(0, 300)}`);
  }
  return JSON.parse(answer.text);
}

/** The result every simulated handler reports: small, with an integer beyond 2^53 kept exactly. */
const RESULT = '{"task_id":"T-1042","status":"created","version":12345678901234567890}';

/** A simulated executor on one binding. */
export class SimExecutor {
  /** @param {string} url @param {string} key  executors:connect + tools:execute @param {string} executorId */
  constructor(url, key, executorId) {
    this.executorId = executorId;
    this.connection = new HttpConnection(url, key);
    this.connectionId = "";
  }

  /** Connects for `bindingId`. */
  async connect(bindingId) {
    const body = JSON.stringify({ executor_id: this.executorId, binding_ids: [bindingId] });
    const answer = expectAnswer("connect", await this.connection.request("POST", "/v1/executors/connect", body), 200);
    this.connectionId = answer.connection_id;
  }

  /** One pending request; answers the candidates (`wait_ms` 0 answers at once). */
  async pending(limit, waitMs) {
    const path = `/v1/executors/${this.executorId}/pending?connection_id=${this.connectionId}&limit=${limit}&wait_ms=${waitMs}`;
    return expectAnswer("pending", await this.connection.request("GET", path), 200).data;
  }

  /** Claims `candidate`; answers `{ claimId, grant }`, or undefined when another executor won it. */
  async claim(candidate) {
    const path = `/v1/runs/${candidate.run_id}/tool-calls/${candidate.call_id}/claim`;
    const body = `{"executor_id":"${this.executorId}","connection_id":"${this.connectionId}"}`;
    const answer = await this.connection.request("POST", path, body);
    if (answer.status === 409) {
      const code = JSON.parse(answer.text).error?.code;
      // A page of candidates goes stale: another executor may have claimed the call, or even completed
      // it and thereby its run (then the claim is refused as run_terminated).
      if (code === "already_claimed" || code === "conflict" || code === "run_terminated") return undefined;
    }
    const claimed = expectAnswer("claim", answer, 200);
    if (claimed.replayed !== false || claimed.call.call_id !== candidate.call_id) {
      throw new BenchMismatch(`claim answered another call or a replay: ${answer.text.slice(0, 300)}`);
    }
    return { claimId: claimed.claim_id, grant: claimed.grant };
  }

  /**
   * One pending long-poll that also claims up to `claim` of the page's calls (the batched route);
   * answers the claims as `{ candidate: { run_id, call_id }, claimId, grant }`.
   */
  async pendingClaims(claim, waitMs) {
    const path = `/v1/executors/${this.executorId}/pending?connection_id=${this.connectionId}&wait_ms=${waitMs}&claim=${claim}`;
    const answer = expectAnswer("pending with claims", await this.connection.request("GET", path), 200);
    return (answer.claims ?? []).map((claimed) => {
      if (claimed.replayed !== false)
        throw new BenchMismatch(`a batched claim was a replay: ${JSON.stringify(claimed)}`);
      return {
        candidate: { run_id: claimed.call.run_id, call_id: claimed.call.call_id },
        claimId: claimed.claim_id,
        grant: claimed.grant,
      };
    });
  }

  /**
   * Settles held claims with two batched receipt requests: every `accepted` (each must be confirmed
   * before its handler may run), then every call's `progress` and `completed`; checks each answer
   * as `settle` does.
   */
  async settleBatch(held) {
    const item = ({ candidate, claimId, grant }, suffix, members) =>
      `{"run_id":"${candidate.run_id}","call_id":"${candidate.call_id}","receipt":{"receipt_id":"${candidate.call_id}-${suffix}","executor_id":"${this.executorId}","claim_id":"${claimId}","grant":"${grant}",${members}}}`;
    const send = async (items) => {
      const path = `/v1/executors/${this.executorId}/receipts`;
      const answer = await this.connection.request("POST", path, `{"receipts":[${items.join(",")}]}`);
      return expectAnswer("batched receipts", answer, 200).data;
    };
    const accepted = await send(held.map((claim) => item(claim, "accepted", '"kind":"accepted"')));
    for (const answer of accepted) {
      if (answer.status !== 200 || answer.body.confirmed !== true || answer.body.replayed !== false) {
        throw new BenchMismatch(`a batched accepted was not confirmed: ${JSON.stringify(answer)}`);
      }
    }
    const outcomes = await send(
      held.flatMap((claim) => [
        item(claim, "progress", '"kind":"progress","progress":{"percent":50}'),
        item(claim, "completed", `"kind":"completed","result":${RESULT}`),
      ]),
    );
    for (const answer of outcomes) {
      const body = answer.body;
      const ok =
        answer.status === 200 &&
        body.applied === true &&
        (body.kind === "progress"
          ? body.call_status === "accepted"
          : body.call_status === "completed" && body.run_status === "completed");
      if (!ok) throw new BenchMismatch(`a batched receipt was not applied: ${JSON.stringify(answer)}`);
    }
  }

  /**
   * Runs a won claim through `accepted`, (`progress`,) `completed` and checks each answer: confirmed,
   * applied, and the run completed by the script's final message.
   */
  async settle(candidate, held, withProgress = true) {
    const path = `/v1/runs/${candidate.run_id}/tool-calls/${candidate.call_id}/receipts`;
    const envelope = `"executor_id":"${this.executorId}","claim_id":"${held.claimId}","grant":"${held.grant}"`;
    const send = async (suffix, members) => {
      const body = `{"receipt_id":"${candidate.call_id}-${suffix}",${envelope},${members}}`;
      return expectAnswer(`${suffix} receipt`, await this.connection.request("POST", path, body), 200);
    };
    const accepted = await send("accepted", '"kind":"accepted"');
    if (accepted.confirmed !== true || accepted.replayed !== false) {
      throw new BenchMismatch(`accepted was not confirmed: ${JSON.stringify(accepted)}`);
    }
    if (withProgress) {
      const progress = await send("progress", '"kind":"progress","progress":{"percent":50}');
      if (progress.applied !== true || progress.call_status !== "accepted") {
        throw new BenchMismatch(`progress was not applied: ${JSON.stringify(progress)}`);
      }
    }
    const completed = await send("completed", `"kind":"completed","result":${RESULT}`);
    if (completed.applied !== true || completed.call_status !== "completed" || completed.run_status !== "completed") {
      throw new BenchMismatch(`completed did not complete the run: ${JSON.stringify(completed)}`);
    }
  }

  /** Renews the lease (through `connection`, so a long-poll in flight on the executor's own does not delay it). */
  async heartbeat(connection) {
    const body = `{"connection_id":"${this.connectionId}"}`;
    expectAnswer(
      "heartbeat",
      await connection.request("POST", `/v1/executors/${this.executorId}/heartbeat`, body),
      200,
    );
  }

  /** Detaches and closes the connection. */
  async disconnect() {
    const body = `{"connection_id":"${this.connectionId}"}`;
    try {
      expectAnswer(
        "disconnect",
        await this.connection.request("POST", `/v1/executors/${this.executorId}/disconnect`, body),
        200,
      );
    } finally {
      this.connection.close();
    }
  }
}
