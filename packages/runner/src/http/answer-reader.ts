/**
 * Reading the server's 2xx answers. The text is parsed as JSON without throwing and checked against
 * the route's wire schema (`@toolhost/protocol/wire`, compiled once with TypeBox). Members the schema
 * does not define are dropped first, so a newer server that adds members stays readable; anything
 * else — a proxy's HTML page, a truncated body, a missing or mistyped member — is a problem value
 * naming the route and the first mismatch, never a SyntaxError or a TypeError thrown into a loop.
 */

import {
  ClaimAnswer,
  DisconnectAnswer,
  ExecutorConnection,
  HeartbeatAnswer,
  PendingAnswer,
  ReceiptAnswer,
  ReceiptBatchAnswer,
  ReportAnswer,
} from "@toolhost/protocol/wire";
import type { Static, TSchema } from "typebox";
import { Compile } from "typebox/compile";
import { RunnerError } from "../errors.js";
import type { HttpOutcome } from "./http-outcome.js";

/** What reading one answer came to. */
export type AnswerRead<T> =
  | { readonly ok: true; readonly value: T }
  /** `problem` says what is wrong, for logs (the text is quoted at most ANSWER_PREVIEW_LENGTH characters). */
  | { readonly ok: false; readonly problem: string };

/** Reads the answers of one route. */
export interface AnswerReader<T> {
  /** The route, as logs and errors name it (`POST /v1/executors/{executor_id}/heartbeat`). */
  readonly route: string;
  read(text: string): AnswerRead<T>;
}

/** Most characters of an unreadable answer quoted in its problem. */
export const ANSWER_PREVIEW_LENGTH = 80;

/** A reader of `route`'s answers against `schema`. */
export function answerReader<Schema extends TSchema>(route: string, schema: Schema): AnswerReader<Static<Schema>> {
  const validator = Compile(schema);
  return {
    route,
    read(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return { ok: false, problem: `not JSON: ${preview(text)}` };
      }
      // Clean drops members the schema does not define (it mutates the freshly parsed value only).
      const cleaned = validator.Clean(value);
      if (validator.Check(cleaned)) return { ok: true, value: cleaned as Static<Schema> };
      const [first] = validator.Errors(cleaned);
      const where = first === undefined || first.instancePath === "" ? "the answer" : first.instancePath;
      return { ok: false, problem: `${where}: ${first?.message ?? "does not match the wire schema"}` };
    },
  };
}

/** The checked reader of every route's answers. */
export const ANSWER_READERS = {
  connect: answerReader("POST /v1/executors/connect", ExecutorConnection),
  heartbeat: answerReader("POST /v1/executors/{executor_id}/heartbeat", HeartbeatAnswer),
  pending: answerReader("GET /v1/executors/{executor_id}/pending", PendingAnswer),
  report: answerReader("POST /v1/executors/{executor_id}/calls/report", ReportAnswer),
  disconnect: answerReader("POST /v1/executors/{executor_id}/disconnect", DisconnectAnswer),
  claim: answerReader("POST /v1/runs/{run_id}/tool-calls/{call_id}/claim", ClaimAnswer),
  receipt: answerReader("POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts", ReceiptAnswer),
  receiptBatch: answerReader("POST /v1/executors/{executor_id}/receipts", ReceiptBatchAnswer),
} as const;

/** The outcome of a 2xx answer: its body read by `reader`, or `malformed` with a RunnerError naming the problem. */
export function answerOutcome<T>(
  reader: AnswerReader<T>,
  status: number,
  text: string,
  contentType: string | null,
): HttpOutcome<T> {
  const read = reader.read(text);
  if (read.ok) return { type: "answer", status, text, body: read.value };
  const error = new RunnerError(
    "malformed_answer",
    `${reader.route} answered ${status} with a body the runner cannot read (${read.problem})`,
    { route: reader.route, status, contentType },
  );
  return { type: "malformed", status, error };
}

/** The start of `text`, one line, for a problem message. */
function preview(text: string): string {
  if (text.length === 0) return "an empty body";
  const line = text.slice(0, ANSWER_PREVIEW_LENGTH).replace(/\s+/g, " ").trim();
  return JSON.stringify(text.length > ANSWER_PREVIEW_LENGTH ? `${line}…` : line);
}
