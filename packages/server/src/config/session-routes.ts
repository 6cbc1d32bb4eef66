/**
 * `/v1/sessions`: create and read sessions (docs/runs.md). Creating needs `runtime:write`, reading
 * `runtime:read`. A session pins one agent version for good: to run a changed agent (a new budget, new
 * tools, new model settings), publish a new agent version and create a new session. The agent version
 * must lie in the credential's agent scope (404 `not_found` at `/agent_version` otherwise).
 */

import { ProtocolError } from "@toolhost/protocol";
import { CreateSessionRequest, PageQuery, Session, SessionIdParams, SessionList } from "@toolhost/protocol/wire";
import { agentScopeOf, notFoundError } from "../auth/id-scope.js";
import { identityOf } from "../auth/require-scope.js";
import type { Clock } from "../clock.js";
import type { RouteModule } from "../http/app.js";
import { ERROR_RESPONSES } from "../http/error-responses.js";
import { pageRequestOf, wirePage } from "../http/paging.js";
import type { RequireScope } from "../http/scope-hook.js";
import { isoTime } from "../http/wire-time.js";
import { newId } from "../ids.js";
import type { SessionRecord } from "../storage/records.js";
import type { Storage } from "../storage/storage.js";

/** Prefix of server-made session IDs. */
export const SESSION_ID_PREFIX = "ses";

/** The wire form of a stored session. */
export function sessionOf(session: SessionRecord): Session {
  return {
    session_id: session.session_id,
    agent_version: session.agent_version,
    agent_id: session.agent_id,
    subject: session.subject,
    created_at: isoTime(session.created_at_ms),
  };
}

const TAGS = ["sessions"];

/** What `sessionRoutes` uses of the app's services. */
export interface SessionRoutesServices {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly requireScope: RequireScope;
}

/** Registers the session routes. */
export const sessionRoutes: RouteModule<SessionRoutesServices> = (app, { storage, clock, requireScope }) => {
  app.post(
    "/v1/sessions",
    {
      config: { errorCodes: ["not_found"] },
      onRequest: requireScope("runtime:write"),
      schema: {
        operationId: "createSession",
        tags: TAGS,
        summary: "Create a session",
        description:
          "Pins one agent version (and through it one toolset version) for every run of the session. 404 at `/agent_version` when that version does not exist or its agent lies outside the credential's agent scope.",
        body: CreateSessionRequest,
        response: { 201: Session, ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const { agent_version, subject } = request.body;
      const version = await storage.agents.getVersion(agent_version, agentScopeOf(identityOf(request)));
      if (version === undefined) {
        throw new ProtocolError(
          "not_found",
          `agent version ${JSON.stringify(agent_version)} not found`,
          "/agent_version",
        );
      }
      const now = clock.nowMs();
      const session: SessionRecord = {
        session_id: newId(SESSION_ID_PREFIX, now),
        agent_version,
        agent_id: version.agent_id,
        subject,
        created_at_ms: now,
      };
      await storage.sessions.insert(session);
      return reply.code(201).send(sessionOf(session));
    },
  );

  app.get(
    "/v1/sessions",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "listSessions",
        tags: TAGS,
        summary: "List sessions",
        description: "Sessions whose agent lies in the credential's agent scope, in creation order.",
        querystring: PageQuery,
        response: { 200: SessionList, ...ERROR_RESPONSES },
      },
    },
    async (request) =>
      wirePage(await storage.sessions.list(pageRequestOf(request.query), agentScopeOf(identityOf(request))), sessionOf),
  );

  app.get(
    "/v1/sessions/:session_id",
    {
      config: { errorCodes: [] },
      onRequest: requireScope("runtime:read"),
      schema: {
        operationId: "getSession",
        tags: TAGS,
        summary: "Read a session",
        description: "404 when it does not exist or its agent lies outside the credential's agent scope.",
        params: SessionIdParams,
        response: { 200: Session, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { session_id } = request.params;
      const session = await storage.sessions.get(session_id, agentScopeOf(identityOf(request)));
      if (session === undefined) throw notFoundError("session", session_id);
      return sessionOf(session);
    },
  );
};
