/**
 * Wire schemas of the session routes (`/v1/sessions`, docs/runs.md). A session pins one agent
 * version and a subject (the end user or account its runs act for); it lies in the agent scope of
 * its agent.
 */

import type { Static } from "typebox";
import { Id, Page, StoredText, Timestamp, WireObject } from "./common.js";

const SESSION_ID = Id("The session's ID.");
const AGENT_VERSION = Id("The pinned agent version (opaque `agv_…` ID).");
const SUBJECT = StoredText({
  description: "The end user or account the session's runs act for, as the product names it (1–256 characters).",
  minLength: 1,
  maxLength: 256,
});

/** `POST /v1/sessions`: a new session pinning one agent version. */
export const CreateSessionRequest = WireObject("A new session.", { agent_version: AGENT_VERSION, subject: SUBJECT });

/** `POST /v1/sessions` body. */
export type CreateSessionRequest = Static<typeof CreateSessionRequest>;

/** A session. */
export const Session = WireObject("A session: one agent version, one subject.", {
  session_id: SESSION_ID,
  agent_version: AGENT_VERSION,
  agent_id: Id("The agent of that version."),
  subject: SUBJECT,
  created_at: Timestamp("When the session was created."),
});

/** A session. */
export type Session = Static<typeof Session>;

/** `GET /v1/sessions` answer: sessions whose agent lies in the credential's agent scope. */
export const SessionList = Page("Sessions in creation order.", Session);

/** `GET /v1/sessions` answer. */
export type SessionList = Static<typeof SessionList>;

/** Path parameters of `/v1/sessions/{session_id}`. */
export const SessionIdParams = WireObject("Names one session.", { session_id: SESSION_ID });

/** Path parameters of `/v1/sessions/{session_id}`. */
export type SessionIdParams = Static<typeof SessionIdParams>;
