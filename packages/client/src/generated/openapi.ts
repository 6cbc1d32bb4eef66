/**
 * The toolhost API's types (paths, operations, components), generated from its OpenAPI document by
 * openapi-typescript: `npm run generate -w @toolhost/client`. Do not edit by hand.
 */

export interface paths {
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Answers `{"status":"ok"}` while the server process serves HTTP, whatever the state of its database. Needs no credential.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers `{"status":"ready","storage":"available"}` when the database answers a round trip and writes can succeed, else 503 `storage_unavailable` with `Retry-After` (within the database connect and query timeouts): also while the database is read-only, or SQLite's file has under 1 MiB of room on its disk or under `max_page_count`. Needs no credential.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Keys whose agents and bindings lie within the caller's, in creation order, revoked ones included; never a secret or a hash.
         *
         *     Requires the scope `admin` (`admin` holds every scope).
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Answers the secret once; store it, it cannot be shown again. The new key grants no more than the calling key: its scopes, agents and bindings must lie within the caller's (403 `forbidden` at the first member beyond; `"*"` only from a key holding `"*"`). Omitted `agents` and `bindings` are the caller's own.
         *
         *     Requires the scope `admin` (`admin` holds every scope).
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Takes effect on the next request. Revoking again answers the first revocation time. 404 when the key does not exist or its agents or bindings reach beyond the caller's.
         *
         *     Requires the scope `admin` (`admin` holds every scope).
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a tool call and preview what the model sees
         * @description Validates `arguments` against the tool's input schema and each mock receipt, and answers the `context_preview` of the first valid `completed` mock receipt (null when there is none), byte for byte as a run's history would store it. Invalid arguments or receipts are reported in the 200 answer. Creates no run, calls no model, reaches no executor: `execution_verified` is always false. Needs `runtime:read`, `configuration:read` or `tools:execute`, the agent in the key's agent scope and the tool's binding in its binding scope (404 otherwise, like a missing one).
         *
         *     Requires the scope `runtime:read` or `configuration:read` or `tools:execute` (`admin` holds every scope).
         */
        post: operations["dryRunToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executor-bindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executor bindings
         * @description Bindings in the credential's binding scope, in creation order.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["listBindings"];
        put?: never;
        /**
         * Register an executor binding
         * @description Without `binding_id` the server makes a `bnd_…` ID. A taken ID is 409 `conflict`. A key whose binding scope is a list may only register IDs from that list (403 otherwise).
         *
         *     Requires the scope `configuration:write` (`admin` holds every scope).
         */
        post: operations["createBinding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executor-bindings/{binding_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an executor binding
         * @description 404 when it does not exist or lies outside the credential's binding scope.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["getBinding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/toolsets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List toolsets
         * @description Toolsets whose bindings (those of every version) all lie in the credential's binding scope, in creation order, each with its latest version number.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["listToolsets"];
        put?: never;
        /**
         * Create a toolset
         * @description Creates the toolset with its version 1 and answers the tools with every default filled in. Each `binding_id` must be registered in the credential's binding scope (422 `unknown_reference`).
         *
         *     Requires the scope `configuration:write` (`admin` holds every scope).
         */
        post: operations["createToolset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/toolsets/{toolset_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a toolset's versions
         * @description Versions oldest first, each with its tools.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["listToolsetVersions"];
        put?: never;
        /**
         * Publish a toolset version
         * @description Appends the next version (the highest number plus one). Earlier versions never change; agent versions keep the version they pinned. 404 unless the credential's binding scope holds every binding the toolset's versions reference.
         *
         *     Requires the scope `configuration:write` (`admin` holds every scope).
         */
        post: operations["publishToolsetVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/toolsets/{toolset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a toolset
         * @description The toolset and its latest version number. 404 when it does not exist or references a binding outside the credential's binding scope.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["getToolset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/toolsets/{toolset_id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a toolset version
         * @description One immutable version: the same answer every time.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["getToolsetVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents
         * @description Agents in the credential's agent scope, in creation order.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an agent
         * @description Answers a new `agt_…` agent; publish versions to make it runnable. Needs an agent scope of `"*"` (a listed scope could not see the new agent: 403).
         *
         *     Requires the scope `configuration:write` (`admin` holds every scope).
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an agent's versions
         * @description Versions oldest first.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["listAgentVersions"];
        put?: never;
        /**
         * Publish an agent version
         * @description Pins a toolset version, the model settings, instructions (default `""`), `max_context_tokens` (default 200000) and the run limits `max_turns`, `max_tool_calls`, `run_timeout_ms` (each at most the server's own, 422 at its pointer above; unset: the server's). Sessions pin the answered `agent_version`. The toolset must be visible to the credential (422 `unknown_reference` otherwise, as when it does not exist); an `openai` or `anthropic` model must name one of the server's model connections within the credential's `connections` (422 `unknown_reference` at `/model/connection` otherwise, as when it does not exist).
         *
         *     Requires the scope `configuration:write` (`admin` holds every scope).
         */
        post: operations["publishAgentVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an agent
         * @description 404 when it does not exist or lies outside the credential's agent scope.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/versions/{agent_version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an agent version
         * @description One immutable version of this agent: the same answer every time.
         *
         *     Requires the scope `configuration:read` (`admin` holds every scope).
         */
        get: operations["getAgentVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sessions
         * @description Sessions whose agent lies in the credential's agent scope, in creation order.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Create a session
         * @description Pins one agent version (and through it one toolset version) for every run of the session. 404 at `/agent_version` when that version does not exist or its agent lies outside the credential's agent scope.
         *
         *     Requires the scope `runtime:write` (`admin` holds every scope).
         */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a session
         * @description 404 when it does not exist or its agent lies outside the credential's agent scope.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/executor-bindings/{binding_id}/diagnostics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Diagnose an agent's executor binding
         * @description Whether the agent's versions reference the binding and with which tools, its online executors, unsettled calls, last verified execution, and named checks (`binding_exists`, `agent_has_versions`, `binding_referenced`, `executor_online`, `no_stale_pending`, `no_reconciliation_backlog`, `execution_verified`).
         *
         *     Requires the scope `configuration:read` or `runtime:read` (`admin` holds every scope).
         */
        get: operations["diagnoseBinding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/tool-calls/{call_id}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Claim a pending tool call
         * @description The first claim wins; another executor gets 409 `already_claimed`, the same executor claiming again gets the same claim and grant with `replayed: true`. Needs `tools:execute` and the key that opened the executor's current connection (403 `executor_key_mismatch` otherwise), the executor's current online connection (409 `connection_superseded` / `connection_offline`) serving the call's binding, and the run's agent and the call's binding in the key's scopes (404 otherwise). A call of an ended run is 409 `run_terminated` (compensation calls excepted). Send `accepted` before `accept_deadline`, or the claim lapses and the call returns to pending.
         *
         *     Requires the scope `tools:execute` (`admin` holds every scope).
         */
        post: operations["claimToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/tool-calls/{call_id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a call's receipts
         * @description Every receipt stored for the call, in arrival order, without bodies: kind, executor, claim, whether it was applied (false for a receipt that arrived after the run ended) and its size. 404 when the run lies outside the credential's agent scope or has no such call.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["listCallReceipts"];
        put?: never;
        /**
         * Report on a claimed tool call
         * @description Kinds: `accepted` (answered `confirmed`: start side effects only on true), `progress`, `completed` (with `result`), `failed` (with `error`), `cancelled`, `reconciliation_required`. Idempotent per `receipt_id`: the same body again answers the first answer with `replayed: true`, the current `call_status` and `run_status`, and for `accepted` a live `confirmed` (true only while this claim holds the call accepted, before its deadline, on an active run); another body is 409 `receipt_conflict` (receipt IDs count per claim). Only the key that opened the executor's current connection may send it (403 `executor_key_mismatch`). A wrong, foreign or expired grant is 403 `invalid_grant`; an outcome before `accepted` is 409 `accept_required`; a second final receipt is 409 `call_already_final`. A `progress` value larger than the server's `maxProgressBytes` (compact JSON) is 413 `progress_too_large`, one more than its `maxProgressPerCall` per call 409 `progress_limit_exceeded` (nothing stored). A receipt for an ended run is stored and answered `applied: false`; it never changes the run or its history. The body is stored exactly as sent.
         *
         *     Requires the scope `tools:execute` (`admin` holds every scope).
         */
        post: operations["sendReceipt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{session_id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a session's runs
         * @description Runs in creation order. 404 when the session lies outside the credential's agent scope.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["listSessionRuns"];
        put?: never;
        /**
         * Start a run
         * @description Stores the run with its `input` (kept byte for byte) and starts its first model turn at once. The scripted model answers in the request, so the answer shows where that left it (`waiting_for_tools` when it emitted calls, `completed` after a final message, `failed` when the model could not go on); an `openai` or `anthropic` model is asked in the background (`running`; follow `GET /v1/runs/{run_id}/events`). 404 when the session lies outside the credential's agent scope.
         *
         *     Requires the scope `runtime:write` (`admin` holds every scope).
         */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a run
         * @description Its status, and its `output` once completed or its `error` once failed.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run
         * @description The run becomes `cancelled`; its calls nobody confirmed yet (`pending`, `claimed`) are cancelled with it. Accepted calls are not touched and no business cancel is sent (that is `POST /v1/runs/{run_id}/tool-calls/{call_id}/cancel`); their later receipts are stored and answered `applied: false`. 409 `run_terminated` when the run has already ended. The body is `{}` or none.
         *
         *     Requires the scope `runtime:write` (`admin` holds every scope).
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/tool-calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a run's tool calls
         * @description Every call of the run in creation order, compensation calls included (with `compensates`). Calls the server refused (unknown tool, invalid arguments) are listed `failed` with `rejected`; no executor saw them.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["listToolCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/tool-calls/{call_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel the business task of a call
         * @description A pending call is `cancelled` at once (the model sees a cancelled result). A claimed or accepted call keeps its status: the request reaches its executor through heartbeat and pending, and the executor confirms with a `cancelled` receipt. Asking again answers the same. 409 `call_already_final` for a call that already has a final status. The run itself goes on. The body is `{}` or none.
         *
         *     Requires the scope `runtime:write` (`admin` holds every scope).
         */
        post: operations["cancelToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/tool-calls/{call_id}/compensate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compensate a completed write call
         * @description Creates a new pending call of `tool_name` (a tool of the run's toolset version) linked by `compensates`, executed through the same claim and receipt protocol, even after the run ended. The original call and the run's history never change. 409 `not_compensable` unless the original is a `completed` call of a `write` tool; 422 `unknown_reference` at `/tool_name` for a tool the toolset lacks; 422 `validation_failed` pointing into `/arguments` when they do not match the tool's input schema.
         *
         *     Requires the scope `runtime:write` (`admin` holds every scope).
         */
        post: operations["compensateToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a run's history
         * @description Items `input`, `tool_calls`, `tool_result` and `message`, oldest first, each exactly as stored when it was committed; items are never rewritten (a reconciled outcome is a new `tool_result` item).
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["getRunHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/model-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a run's model requests
         * @description Each request the run made to its model (`purpose` `turn`, or `summary` for a compaction), in creation order: `request_bytes`, the calibrated `estimated_input_tokens` made before sending, the provider's `actual_input_tokens` and `output_tokens` (null when it reported none), whether the history was `compacted` just before, and `latency_ms` (retries included).
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["listModelRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs/{run_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a run's events (server-sent events)
         * @description A `text/event-stream` of the run's events, oldest first: `id:` increases per run, `event:` is `run.status` (the run), `history.item` (`{seq, item}`, the item as stored), `tool_call.status` (the call) or `model.request` (the request on record), `data:` is JSON. An event whose data exceeds 64 KiB comes as a reference, `{seq, ref: {bytes, href}}` for a history item (`href` reads it from the history), a run without `output` and `error` and with `ref` for a run. Send `Last-Event-ID` to resume after an event. A `: heartbeat` comment comes after 15 s of silence; the stream ends after the run's terminal `run.status`, and also when the key is revoked, after `eventStreamMaxMs` (15 min) or when the client reads too slowly: resume it with `Last-Event-ID`. At most 32 streams per key and 1,000 per server (by default) are open at once; beyond, 429 `too_many_streams` with `Retry-After`. Closing it never changes the run (it is not a cancel).
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["streamRunEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect an executor
         * @description Gives the stable `executor_id` a new connection for `binding_ids` (each must exist and lie in the key's binding scope: 422 `unknown_reference` otherwise). The answer's `batch` names the batched routes this server offers (`claim_max` for `pending?claim=N`, `receipts_max` for `POST /v1/executors/{executor_id}/receipts`). A reconnect supersedes the older connection: `epoch` grows by one and the old `connection_id` answers 409 `connection_superseded`. Claims stay with the executor ID. The executor belongs to this key from now on: every later request for it (heartbeat, pending, report, disconnect, claims, receipts) must come from this key (403 `executor_key_mismatch`).
         *
         *     Requires the scope `executors:connect` (`admin` holds every scope).
         */
        post: operations["connectExecutor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors/{executor_id}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew an executor's lease
         * @description Renews the lease of the current connection and answers the business cancellations requested for calls the executor holds. A superseded connection answers 409 `connection_superseded`; an offline one (lease lapsed or detached) 409 `connection_offline`: connect again.
         *
         *     Requires the scope `executors:connect` (`admin` holds every scope).
         */
        post: operations["heartbeatExecutor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors/{executor_id}/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List candidate calls (long-poll)
         * @description Claimable calls on the connection's bindings, oldest first, paged (`limit`, `cursor`): IDs, tool name, binding and creation time, never arguments or grants. With `wait_ms` (at most 30,000) and nothing claimable, waits until a call appears or the time runs out (then an empty list). Also lists the business cancellations for calls the executor holds. With `claim=N` (1 to 32; the key needs `tools:execute` too, 403 `forbidden` otherwise) up to N of this page's candidates are claimed at once: `claims` holds, per claim, exactly what `POST /v1/runs/{run_id}/tool-calls/{call_id}/claim` answers (same checks, grant and `replayed`); candidates another executor won meanwhile are dropped, and the rest stay in `data` without arguments or grant.
         *
         *     Requires the scope `executors:connect` (`admin` holds every scope).
         */
        get: operations["listPendingCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors/{executor_id}/calls/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report the calls an executor holds
         * @description The executor lists calls its journal holds as `pending_delivery` or `pending_reconciliation`; per call the answer says what the server has (status, run status, the receipt IDs it holds from this executor) and what to do: `redeliver`, `reconcile`, `nothing` or `run_terminated` (do not execute). Changes nothing.
         *
         *     Requires the scope `executors:connect` (`admin` holds every scope).
         */
        post: operations["reportExecutorCalls"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors/{executor_id}/disconnect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Detach an executor
         * @description The connection goes offline. Its claimed-but-not-accepted calls return to pending (listed in `released`); accepted calls stay with the executor ID and are not cancelled. Not a run cancel and not a business cancel.
         *
         *     Requires the scope `executors:connect` (`admin` holds every scope).
         */
        post: operations["disconnectExecutor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors/{executor_id}/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report on many claimed tool calls
         * @description Up to 100 receipts of this executor's calls (within the server's body limit), each recorded in its own transaction (one call's receipts in request order). The answer lists, in order, what `POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts` answers for each receipt — `status` and `body`, errors included (their pointers are relative to the receipt) — with the same idempotency per `receipt_id` (`replayed: true`, 409 `receipt_conflict`) across both routes. The executor must belong to the key (404, 403 `executor_key_mismatch` for the whole request) and every receipt must name it (422 `validation_failed` for that receipt). A body that fails the schema refuses the whole batch.
         *
         *     Requires the scope `tools:execute` (`admin` holds every scope).
         */
        post: operations["postExecutorReceipts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List recent runs
         * @description Runs of every session whose agent lies in the credential's agent scope, newest first (by creation time). `status` keeps the runs in that status, `agent_id` those of that agent (both: runs matching both); an unknown status is 422 `validation_failed`, an agent without runs (or outside the key's agent scope) lists nothing. The `next_cursor` continues the same filtered list.
         *
         *     Requires the scope `runtime:read` (`admin` holds every scope).
         */
        get: operations["listRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/executors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executors
         * @description Every executor whose current connection serves only bindings in the credential's binding scope, online or not, ordered by executor ID: its connection, epoch, bindings, lease and the tools it declared.
         *
         *     Requires the scope `configuration:read` or `runtime:read` (`admin` holds every scope).
         */
        get: operations["listExecutors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Calls by status, the oldest pending call's age, claim and wake-up latency, receipts by kind and outcome, replays and conflicts, executors online, model input tokens estimated and actual, domain events. Needs `metrics:read` (or `admin`), unless the server runs with `metricsPublic`.
         *
         *     Requires the scope `metrics:read` (`admin` holds every scope).
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A receipt of kind `accepted`. */
        AcceptedReceipt: {
            /** @description The executor's ID of this receipt; a redelivery reuses it with the same body. */
            receipt_id: string;
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant the claim answered; it expires with the call's deadline. */
            grant: string;
            /**
             * @description Always `accepted`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "accepted";
        };
        /** @description An agent; what it runs is pinned by its versions. */
        Agent: {
            /** @description The agent's ID. */
            agent_id: string;
            /** @description A label for people. */
            name: string;
            /**
             * Format: date-time
             * @description When the agent was created.
             */
            created_at: string;
        };
        /** @description Agents in creation order. */
        AgentList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["Agent"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description An immutable agent version. */
        AgentVersion: {
            /** @description The agent version's opaque ID (`agv_…`). */
            agent_version: string;
            /** @description The agent's ID. */
            agent_id: string;
            /** @description The pinned toolset. */
            toolset_id: string;
            /** @description The pinned toolset version. */
            toolset_version: number;
            model: components["schemas"]["StoredModelSettings"];
            /** @description The system instructions for the model (up to 200000 characters). */
            instructions: string;
            /** @description The model's input window in tokens: every model request is checked against it. 1024–10000000. */
            max_context_tokens: number;
            /** @description Most model turns a run of this version makes; beyond, it fails `run_limit_exceeded`. Null: the server's limit applies. */
            max_turns: number | null;
            /** @description Most tool calls a run's model may ask for (refused ones included); beyond, it fails `run_limit_exceeded`. Null: the server's limit applies. */
            max_tool_calls: number | null;
            /** @description Longest a run may last, from its creation; then it is `expired`. Null: the server's limit applies. */
            run_timeout_ms: number | null;
            /**
             * Format: date-time
             * @description When the version was published.
             */
            created_at: string;
        };
        /** @description Versions of one agent, oldest first. */
        AgentVersionList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["AgentVersion"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description A model behind the Messages API of Anthropic or an Anthropic-compatible endpoint. */
        AnthropicModelSettings: {
            /**
             * @description Anthropic or an Anthropic-compatible endpoint.
             * @constant
             */
            provider: "anthropic";
            /** @description One of the server's model connections (declared by the operator in `TOOLHOST_MODEL_CONNECTIONS`), serving `anthropic` and within the publishing key's `connections`; else 422 `unknown_reference` here. The connection holds the endpoint and the key: `base_url` and `api_key_env` are refused (422 `unknown_field`). */
            connection: string;
            /** @description The model name the endpoint knows. */
            model: string;
            /** @description Output tokens a request may use, reserved in the context window (default 4096). */
            max_output_tokens?: number;
            /** @description Sampling temperature (the provider's default when absent). */
            temperature?: number;
        };
        /** @description One receipt of a batch: its call and its body. */
        BatchedReceipt: {
            /** @description The call's run. */
            run_id: string;
            /** @description The call. */
            call_id: string;
            receipt: components["schemas"]["ReceiptRequest"];
        };
        /** @description An executor binding: a named place where tools execute. */
        Binding: {
            /** @description The binding's ID; tools name it as their `binding_id`. */
            binding_id: string;
            /** @description A label for people; not unique. */
            name: string;
            /**
             * Format: date-time
             * @description When the binding was registered.
             */
            created_at: string;
        };
        /** @description How one agent's versions use one executor binding, and its health. */
        BindingDiagnostics: {
            /** @description The agent. */
            agent_id: string;
            /** @description The executor binding. */
            binding_id: string;
            /** @description True when some version of the agent pins a toolset version using the binding. */
            referenced: boolean;
            /** @description The referencing agent versions, oldest first. */
            referenced_by: {
                /** @description The agent version. */
                agent_version: string;
                /** @description Its toolset. */
                toolset_id: string;
                /** @description Its toolset version. */
                toolset_version: number;
            }[];
            /** @description Every tool on the binding, per referencing agent version. */
            tools: {
                /** @description The tool's name. */
                name: string;
                /** @description The agent version pinning it. */
                agent_version: string;
                /**
                 * @description `read` or `write`.
                 * @enum {unknown}
                 */
                effect: "write" | "read";
                /** @description The tool's result budget in bytes of compact JSON. */
                max_result_context_bytes: number;
            }[];
            /** @description The binding's executors. */
            executors: {
                /** @description Executors online for the binding now. */
                online: components["schemas"]["OnlineExecutor"][];
                /** @description The latest heartbeat of any executor; null when none. */
                last_heartbeat_at: string | null;
            };
            /** @description The agent's tool calls on the binding that are not settled. */
            calls: {
                /** @description Waiting for an executor to claim them. */
                pending: number;
                /** @description Claimed, not yet accepted. */
                claimed: number;
                /** @description Accepted; the business operation may be running. */
                accepted: number;
                /** @description The business result is unknown; the product must reconcile. */
                reconciliation_required: number;
                /** @description Age of the oldest pending call; null when none. */
                oldest_pending_age_ms: number | null;
            };
            /** @description The latest completed call on the binding; null when none. */
            last_verified_execution: components["schemas"]["VerifiedExecution"] | null;
            /** @description Named checks, in a fixed order. */
            checks: components["schemas"]["DiagnosticCheck"][];
        };
        /** @description Executor bindings in creation order. */
        BindingList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["Binding"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description The cancellation is recorded. */
        CallCancelRequested: {
            /** @description The tool call's ID. */
            call_id: string;
            /**
             * @description `pending`, `claimed`, `accepted`, `reconciliation_required`, or the final `completed`, `failed`, `cancelled`, `expired`.
             * @enum {unknown}
             */
            status: "pending" | "claimed" | "accepted" | "completed" | "failed" | "cancelled" | "reconciliation_required" | "expired";
            /**
             * @description Always true: a pending call is `cancelled` at once; a claimed or accepted one keeps its status until the executor confirms with a `cancelled` receipt.
             * @constant
             */
            cancel_requested: true;
        };
        /** @description Every receipt stored for one call, in arrival order. */
        CallReceipts: {
            /** @description The call. */
            call_id: string;
            /** @description In arrival order. A replay (same ID, same body) is not stored again; a conflicting one (same ID, another body) was refused. */
            receipts: components["schemas"]["StoredReceipt"][];
        };
        /** @description The server's side of one reported call. */
        CallReport: {
            /** @description The reported call. */
            call_id: string;
            /** @description The call's run; null for an unknown call. */
            run_id: string | null;
            /** @description The call's status; null for an unknown call. */
            status: ("pending" | "claimed" | "accepted" | "completed" | "failed" | "cancelled" | "reconciliation_required" | "expired") | null;
            /** @description The run's status; null for an unknown call. */
            run_status: ("queued" | "running" | "waiting_for_tools" | "completed" | "failed" | "cancelled" | "expired") | null;
            /** @description The receipts of this executor the server holds for the call, in arrival order. */
            receipt_ids: string[];
            /**
             * @description `redeliver`, `reconcile`, `nothing` or `run_terminated` (do not execute).
             * @enum {unknown}
             */
            action: "redeliver" | "reconcile" | "nothing" | "run_terminated";
            /**
             * @description Why (a stable code).
             * @enum {unknown}
             */
            reason: "unknown_call" | "run_ended" | "call_closed" | "not_held" | "missing_receipts" | "reconciliation_open" | "up_to_date" | "settled";
        };
        /** @description Asks for the business task behind the call to be cancelled. */
        CancelCallRequest: Record<string, never>;
        /** @description A business cancellation to carry out and confirm. */
        CancellationRequest: {
            /** @description The call's run. */
            run_id: string;
            /** @description The call; confirm with a `cancelled` receipt once the business task stopped. */
            call_id: string;
            /**
             * Format: date-time
             * @description When the cancellation was requested.
             */
            requested_at: string;
        };
        /** @description A receipt of kind `cancelled`. */
        CancelledReceipt: {
            /** @description The executor's ID of this receipt; a redelivery reuses it with the same body. */
            receipt_id: string;
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant the claim answered; it expires with the call's deadline. */
            grant: string;
            /** @description The product's error object (required on `failed`; allowed on `cancelled` and `reconciliation_required`). */
            error?: {
                [key: string]: unknown;
            };
            /**
             * @description Always `cancelled`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "cancelled";
        };
        /** @description The run is cancelled. */
        CancelledRun: {
            /** @description The run's ID. */
            run_id: string;
            /**
             * @description Always `cancelled`.
             * @constant
             */
            status: "cancelled";
        };
        /** @description Cancels the run. */
        CancelRunRequest: Record<string, never>;
        /** @description One reason a checked value is invalid. */
        CheckProblem: {
            /** @description JSON pointer into the checked value (the arguments, or the receipt). */
            pointer: string;
            /** @description What is wrong; for people, not stable. */
            message: string;
        };
        /** @description The claim, its grant and the call. */
        ClaimAnswer: {
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant: send it with every receipt of this claim. */
            grant: string;
            /** @description True when this executor already held the claim (same claim and grant). */
            replayed: boolean;
            call: components["schemas"]["ClaimedCall"];
        };
        /** @description The claimed call, with its arguments. */
        ClaimedCall: {
            /** @description The run's ID. */
            run_id: string;
            /** @description The call's ID. */
            call_id: string;
            /** @description The tool's name in the pinned toolset version. */
            tool_name: string;
            /** @description The executor binding the tool runs on. */
            binding_id: string;
            /**
             * @description `write` (persist the operation key before `accepted`) or `read`.
             * @enum {unknown}
             */
            effect: "write" | "read";
            /** @description The validated arguments, exactly as the model produced them (compact JSON, the model's key order). */
            arguments: unknown;
            /** @description `sha256:` + hex SHA-256 of the arguments' sorted canonical compact JSON; recompute it to check them. */
            arguments_digest: string;
            /** @description The end user or account the run acts for. */
            subject: string;
            /** @description The run's agent. */
            agent_id: string;
            /** @description The run's pinned agent version. */
            agent_version: string;
            /** @description The toolset the agent version pins. */
            toolset_id: string;
            /** @description The pinned toolset version. */
            toolset_version: number;
            /**
             * Format: date-time
             * @description The call's deadline: the grant expires then, and an unanswered call settles.
             */
            deadline: string;
            /**
             * Format: date-time
             * @description Send `accepted` before this, or the claim lapses and the call returns to pending.
             */
            accept_deadline: string;
            /** @description The W3C `traceparent` of the call's `toolhost.tool_call` span, in the trace of the run that planned it; absent when the server had no trace context. Start the handler's span as its child or link to it. Not part of any digest. */
            traceparent?: string;
        };
        /** @description Claims a pending call for one connected executor. */
        ClaimRequest: {
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The executor's current connection, as connect answered it. */
            connection_id: string;
        };
        /** @description A compensating call for a completed write call. */
        CompensateRequest: {
            /** @description The compensating tool, from the run's toolset version. */
            tool_name: string;
            /** @description Its arguments; they must match the tool's input schema (422 with the pointer otherwise). */
            arguments: {
                [key: string]: unknown;
            };
        };
        /** @description A receipt of kind `completed`. */
        CompletedReceipt: {
            /** @description The executor's ID of this receipt; a redelivery reuses it with the same body. */
            receipt_id: string;
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant the claim answered; it expires with the call's deadline. */
            grant: string;
            /** @description The business result (required on `completed`, only there); stored verbatim. */
            result: unknown;
            /**
             * @description How the model sees the result: `json` (default), `multimodal`, `submission` or `opaque`.
             * @enum {unknown}
             */
            result_type?: "json" | "multimodal" | "submission" | "opaque";
            /**
             * @description Always `completed`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "completed";
        };
        /** @description Names the executor's current connection. */
        ConnectionRequest: {
            /** @description The connection's ID, as connect answered it. */
            connection_id: string;
        };
        /** @description Connects an executor for some bindings. */
        ConnectRequest: {
            /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
            executor_id: string;
            /** @description The bindings this connection serves; each must exist and lie in the key's binding scope. */
            binding_ids: string[];
            /** @description The tools this connection runs (the names its executor registered handlers for), at most 1000. Binding diagnostics show them and name tools no online executor serves; omitted: not declared (an older executor), assumed to serve every tool. */
            tool_names?: string[];
        };
        /** @description What the model sees of one tool result, and how it was cut. */
        ContextPreview: {
            /** @description The tool's budget the result was projected to. */
            max_result_context_bytes: number;
            /** @description Bytes of compact UTF-8 JSON of the full result. */
            original_bytes: number;
            /** @description Bytes of compact UTF-8 JSON of `result` (what the model sees). */
            retained_bytes: number;
            /** @description True when `result` is a cut of the original. */
            truncated: boolean;
            /** @description What the model sees: the result itself when it fits, else `{truncation, preserved_fields, preview}` (multimodal: text blocks cut in place). */
            result: unknown;
        };
        /** @description A new agent. */
        CreateAgentRequest: {
            /** @description A label for people; not unique. */
            name: string;
        };
        /** @description A new agent version. */
        CreateAgentVersionRequest: {
            /** @description The toolset whose version this agent version pins. */
            toolset_id: string;
            /** @description The pinned toolset version; it must exist. */
            toolset_version: number;
            model: components["schemas"]["ModelSettings"];
            /** @description The system instructions for the model (up to 200000 characters). Default `""`. */
            instructions?: string;
            /** @description The model's input window in tokens: every model request is checked against it. 1024–10000000. Default 200000. */
            max_context_tokens?: number;
            /** @description Most model turns a run of this version makes; beyond, it fails `run_limit_exceeded`. At most the server's own limit (its default too). */
            max_turns?: number;
            /** @description Most tool calls a run's model may ask for (refused ones included); beyond, it fails `run_limit_exceeded`. At most the server's own limit (its default too). */
            max_tool_calls?: number;
            /** @description Longest a run may last, from its creation; then it is `expired`. At most the server's own limit (its default too). */
            run_timeout_ms?: number;
        };
        /** @description A new executor binding. */
        CreateBindingRequest: {
            /** @description The binding's ID; tools name it as their `binding_id`. Default: a new `bnd_…` ID. A taken ID answers 409 `conflict`. */
            binding_id?: string;
            /** @description A label for people; not unique. */
            name: string;
        };
        /** @description A created API key, with its secret. */
        CreatedKey: {
            /** @description The key's ID (not its secret). */
            key_id: string;
            /** @description A label for people; not unique. */
            name: string;
            /** @description What the key may do. */
            scopes: ("configuration:read" | "configuration:write" | "runtime:read" | "runtime:write" | "executors:connect" | "tools:execute" | "metrics:read" | "admin")[];
            /** @description The agents whose objects the key reaches; others answer 404. */
            agents: "*" | string[];
            /** @description The executor bindings whose objects the key reaches; others answer 404. */
            bindings: "*" | string[];
            /** @description The operator's model connections the key's agent versions may name; others answer 422 at `/model/connection`, like unknown ones. */
            connections: "*" | string[];
            /**
             * Format: date-time
             * @description When the key was created.
             */
            created_at: string;
            /** @description The secret, for `Authorization: Bearer <key>`; shown only here. */
            key: string;
        };
        /** @description A created toolset with its version 1. */
        CreatedToolset: {
            /** @description The toolset's ID. */
            toolset_id: string;
            /**
             * @description Always 1 for a new toolset.
             * @constant
             */
            version: 1;
            /** @description A label for people. */
            name: string;
            /** @description The tools, in order, defaults filled in. */
            tools: components["schemas"]["Tool"][];
            /**
             * Format: date-time
             * @description When this version was published.
             */
            created_at: string;
        };
        /** @description A new API key; it grants no more than the key that creates it. */
        CreateKeyRequest: {
            /** @description A label for people; not unique. */
            name: string;
            /** @description What the key may do. */
            scopes: ("configuration:read" | "configuration:write" | "runtime:read" | "runtime:write" | "executors:connect" | "tools:execute" | "metrics:read" | "admin")[];
            /** @description The agents whose objects the key reaches; others answer 404. Default: the creating key's agents. */
            agents?: "*" | string[];
            /** @description The executor bindings whose objects the key reaches; others answer 404. Default: the creating key's bindings. */
            bindings?: "*" | string[];
            /** @description The operator's model connections the key's agent versions may name; others answer 422 at `/model/connection`, like unknown ones. Default: the creating key's connections. */
            connections?: "*" | string[];
        };
        /** @description A new run of the session's agent version. */
        CreateRunRequest: {
            /** @description What the run starts from (usually the end user's message): any JSON value, kept byte for byte. */
            input: unknown;
        };
        /** @description A new session. */
        CreateSessionRequest: {
            /** @description The pinned agent version (opaque `agv_…` ID). */
            agent_version: string;
            /** @description The end user or account the session's runs act for, as the product names it (1–256 characters). */
            subject: string;
        };
        /** @description A new toolset and its first version. */
        CreateToolsetRequest: {
            /** @description A label for people; not unique. */
            name: string;
            /** @description The tools, in order; names unique. An empty list is valid. */
            tools: components["schemas"]["ToolInput"][];
        };
        /** @description The tools of a new toolset version. */
        CreateToolsetVersionRequest: {
            /** @description The tools, in order; names unique. An empty list is valid. */
            tools: components["schemas"]["ToolInput"][];
        };
        /** @description One named check. */
        DiagnosticCheck: {
            /** @description Stable check name: `binding_exists`, `agent_has_versions`, `binding_referenced`, `executor_online`, `tools_served`, `no_stale_pending`, `no_reconciliation_backlog`, `execution_verified`; more may be added. */
            name: string;
            /** @description True when the check holds. */
            ok: boolean;
            /** @description What was found and, when not ok, what to do; for people. */
            message: string;
        };
        /** @description The executor detached. */
        DisconnectAnswer: {
            /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
            executor_id: string;
            /**
             * @description Always false.
             * @constant
             */
            online: false;
            /** @description Claimed-but-not-accepted calls this detach released: back to pending (cancelled instead when their business cancel had been requested). Accepted calls stay with the executor ID. */
            released: string[];
        };
        /** @description What a tool call would look like to the model; nothing was executed. */
        DryRunAnswer: {
            /** @description The tool as the agent version pins it. */
            tool: {
                /** @description The tool's name. */
                name: string;
                /** @description The executor binding that would run it. */
                binding_id: string;
                /**
                 * @description `read` or `write`.
                 * @enum {unknown}
                 */
                effect: "write" | "read";
                /** @description The tool's budget for results. */
                max_result_context_bytes: number;
            };
            /** @description The arguments checked against the tool's input schema. */
            arguments: {
                /** @description True when `errors` is empty. */
                valid: boolean;
                /** @description Why it is invalid; empty when valid. */
                errors: components["schemas"]["CheckProblem"][];
            };
            /** @description Each mock receipt, in the order sent. */
            receipts: {
                /** @description The receipt's ID; null when it sent none. */
                receipt_id: string | null;
                /** @description The receipt kind; null when missing or unknown. */
                kind: ("accepted" | "progress" | "completed" | "failed" | "cancelled" | "reconciliation_required") | null;
                /** @description True when `errors` is empty. */
                valid: boolean;
                /** @description Why it is invalid; empty when valid. */
                errors: components["schemas"]["CheckProblem"][];
            }[];
            /** @description What the model would see of the first valid `completed` mock receipt, byte for byte as the run's history would store it; null when there is none. */
            context_preview: components["schemas"]["ContextPreview"] | null;
            /**
             * @description Always false: a dry-run never proves that the real business execution works.
             * @constant
             */
            execution_verified: false;
        };
        /** @description A tool call to check without executing it. */
        DryRunRequest: {
            /** @description A published agent version ID; its toolset version holds the tool. */
            agent_version: string;
            /** @description The tool's name in that toolset version. */
            tool_name: string;
            /** @description The arguments to check against the tool's `input_schema` (default `{}`). */
            arguments?: unknown;
            /** @description Receipts to check, in order (default none). */
            mock_receipts?: unknown[];
        };
        /** @description What went wrong. */
        ErrorDetail: {
            /**
             * @description Stable snake_case error code; clients branch on it.
             * @enum {string}
             */
            code: "invalid_json" | "bad_request" | "duplicate_member" | "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "invalid_budget" | "invalid_schema" | "schema_too_large" | "too_many_tools" | "duplicate_tool_name" | "unknown_reference" | "invalid_result" | "unauthorized" | "forbidden" | "executor_key_mismatch" | "invalid_grant" | "not_found" | "method_not_allowed" | "already_claimed" | "receipt_conflict" | "accept_required" | "call_already_final" | "progress_limit_exceeded" | "run_terminated" | "connection_superseded" | "connection_offline" | "conflict" | "not_compensable" | "too_many_streams" | "request_timeout" | "body_too_large" | "progress_too_large" | "unsupported_media_type" | "internal_error" | "storage_unavailable";
            /** @description Human-readable explanation; not stable. */
            message: string;
            /** @description JSON pointer (RFC 6901) to the member of the request at fault. */
            pointer?: string;
            /** @description Machine-readable details; their members depend on the code. */
            details?: {
                [key: string]: unknown;
            };
            /** @description The request's ID, the same as the answer's `X-Request-Id` header (the caller's own when it sent an acceptable one); quote it when reporting a problem. */
            request_id?: string;
        };
        /** @description The batched routes this server offers: `?claim=N` on pending and `POST …/receipts` on the executor. */
        ExecutorBatchLimits: {
            /** @description Most claims one pending request may ask for. */
            claim_max: number;
            /** @description Most receipts one batch may carry. */
            receipts_max: number;
        };
        /** @description A new connection; any older connection of the executor is fenced. */
        ExecutorConnection: {
            /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
            executor_id: string;
            /** @description The new connection: send it with every heartbeat, pending, report, disconnect and claim. */
            connection_id: string;
            /** @description 1 on the first connect, one more on every reconnect. */
            epoch: number;
            /** @description Send a heartbeat this often. */
            heartbeat_interval_ms: number;
            /** @description The connection goes offline this long after its last heartbeat. */
            lease_ttl_ms: number;
            /** @description The bindings this connection serves; each must exist and lie in the key's binding scope. */
            binding_ids: string[];
            batch?: components["schemas"]["ExecutorBatchLimits"];
        };
        /** @description Executors in the credential's binding scope, by executor ID. */
        ExecutorList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["ExecutorSummary"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description An executor (a stable ID chosen by the product) and its current connection. */
        ExecutorSummary: {
            /** @description The executor's stable ID. */
            executor_id: string;
            /** @description Its current connection. */
            connection_id: string;
            /** @description 1 on the first connect, one more on every reconnect. */
            epoch: number;
            /** @description The bindings the connection serves. */
            binding_ids: string[];
            /** @description True while the connection is live: not detached and its lease not lapsed. */
            online: boolean;
            /**
             * Format: date-time
             * @description When the current connection was made.
             */
            connected_at: string;
            /**
             * Format: date-time
             * @description Its latest heartbeat (the connect counts as one).
             */
            last_heartbeat_at: string;
            /**
             * Format: date-time
             * @description It goes (or went) offline then without another heartbeat.
             */
            lease_expires_at: string;
            /** @description When it detached or its lease was swept; null while online. */
            disconnected_at: string | null;
            /** @description The tools the executor declared it serves when it connected; absent when it declared none. */
            tool_names?: string[];
        };
        /** @description A receipt of kind `failed`. */
        FailedReceipt: {
            /** @description The executor's ID of this receipt; a redelivery reuses it with the same body. */
            receipt_id: string;
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant the claim answered; it expires with the call's deadline. */
            grant: string;
            /** @description The product's error object (required on `failed`; allowed on `cancelled` and `reconciliation_required`). */
            error: {
                [key: string]: unknown;
            };
            /**
             * @description Always `failed`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "failed";
        };
        /** @description The server is up. */
        Health: {
            /**
             * @description Always `ok` when the server answers.
             * @constant
             */
            status: "ok";
        };
        /** @description The renewed lease and pending business cancellations. */
        HeartbeatAnswer: {
            /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
            executor_id: string;
            /** @description The connection's ID, as connect answered it. */
            connection_id: string;
            /**
             * Format: date-time
             * @description The connection stays online until then without another heartbeat.
             */
            lease_expires_at: string;
            /** @description Send the next heartbeat within this interval. */
            heartbeat_interval_ms: number;
            /** @description Calls this executor holds (claimed or accepted) whose business task was asked to stop, oldest first. */
            cancellations: components["schemas"]["CancellationRequest"][];
        };
        /** @description One history item: `input`, `message`, `tool_calls`, `tool_result`, `compaction`. Items are never rewritten; later facts are new items. */
        HistoryItem: {
            /** @constant */
            type: "input";
            /** @description The input as sent. */
            input: unknown;
        } | {
            /** @constant */
            type: "message";
            /** @description The message (the run's output). */
            text: string;
        } | {
            /** @constant */
            type: "tool_calls";
            /** @description The calls, in the model's order. */
            calls: {
                /** @description The tool call's ID. */
                call_id: string;
                /** @description The tool name the model used. */
                name: string;
                /** @description The arguments as the model emitted them. */
                arguments: unknown;
            }[];
        } | {
            /** @constant */
            type: "tool_result";
            /** @description The tool call's ID. */
            call_id: string;
            /** @description Null when no receipt did (arguments refused, call cancelled before it ran, expired, silent past its deadline). */
            receipt_id: string | null;
            context_preview: components["schemas"]["ContextPreview"];
        } | {
            /** @constant */
            type: "compaction";
            /** @description The summary the model (or the scripted model) made of those items. */
            summary: string;
            /** @description The last item it replaces (every item after the input, up to this position). */
            through_seq: number;
        };
        /** @description The run's history, oldest first. */
        HistoryPage: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["HistoryItem"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description An API key (never its secret). */
        KeyInfo: {
            /** @description The key's ID (not its secret). */
            key_id: string;
            /** @description A label for people; not unique. */
            name: string;
            /** @description What the key may do. */
            scopes: ("configuration:read" | "configuration:write" | "runtime:read" | "runtime:write" | "executors:connect" | "tools:execute" | "metrics:read" | "admin")[];
            /** @description The agents whose objects the key reaches; others answer 404. */
            agents: "*" | string[];
            /** @description The executor bindings whose objects the key reaches; others answer 404. */
            bindings: "*" | string[];
            /** @description The operator's model connections the key's agent versions may name; others answer 422 at `/model/connection`, like unknown ones. */
            connections: "*" | string[];
            /**
             * Format: date-time
             * @description When the key was created.
             */
            created_at: string;
            /** @description When the key was revoked; null while active. */
            revoked_at: string | null;
        };
        /** @description API keys in creation order. */
        KeyList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["KeyInfo"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description Stored before model connections: readable, but its runs fail `model_error`; publish a new version naming a `connection`. */
        LegacyProviderModelSettings: {
            /** @description The provider. */
            provider: "openai" | "anthropic";
            /** @description The endpoint it named (no longer used). */
            base_url?: string;
            /** @description The model name. */
            model: string;
            /** @description The environment variable it named (no longer read). */
            api_key_env?: string;
            /** @description Output tokens a request could use. */
            max_output_tokens?: number;
            /** @description Sampling temperature. */
            temperature?: number;
        };
        /** @description One request a run made to its model: a turn, or a summary for compaction. */
        ModelRequest: {
            /** @description The request's ID. */
            request_id: string;
            /** @description The model turn (0, 1, …) it was made for. */
            turn: number;
            /**
             * @description `turn`: asks for the next step; `summary`: summarises the oldest turns for compaction.
             * @enum {unknown}
             */
            purpose: "turn" | "summary";
            /** @description `scripted`, `openai` or `anthropic`. */
            provider: string;
            /** @description The model name (`scripted` for the scripted model). */
            model: string;
            /** @description UTF-8 bytes of the request body. */
            request_bytes: number;
            /** @description The calibrated estimate of its input tokens, made before it was sent. */
            estimated_input_tokens: number;
            /** @description Null when the provider reported none (the scripted model, a failed request). */
            actual_input_tokens: number | null;
            /** @description Null when the provider reported none. */
            output_tokens: number | null;
            /** @description True when the history was compacted just before this request. */
            compacted: boolean;
            /** @description From sending to the answer, retries included. */
            latency_ms: number;
            error?: components["schemas"]["RunError"];
            /**
             * Format: date-time
             * @description When the request was made.
             */
            created_at: string;
        };
        /** @description The run's model requests, in creation order. */
        ModelRequestList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["ModelRequest"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description Model settings, chosen by `provider`: `"scripted"`, `"openai"` or `"anthropic"`. Strict: unknown members are refused. */
        ModelSettings: components["schemas"]["ScriptedModelSettings"] | components["schemas"]["OpenAiModelSettings"] | components["schemas"]["AnthropicModelSettings"];
        /** @description An executor whose live connection serves the binding. */
        OnlineExecutor: {
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description Its current connection. */
            connection_id: string;
            /**
             * Format: date-time
             * @description When the connection was made.
             */
            connected_at: string;
            /**
             * Format: date-time
             * @description Its latest heartbeat.
             */
            last_heartbeat_at: string;
            /**
             * Format: date-time
             * @description It goes offline then without another heartbeat.
             */
            lease_expires_at: string;
            /** @description The tools its connection declared it runs; null when it declared none (an older executor: assumed to serve every tool). */
            tool_names: string[] | null;
        };
        /** @description A model behind the Chat Completions API of OpenAI or any OpenAI-compatible endpoint (vLLM, Ollama, gateways). */
        OpenAiModelSettings: {
            /**
             * @description OpenAI or an OpenAI-compatible endpoint.
             * @constant
             */
            provider: "openai";
            /** @description One of the server's model connections (declared by the operator in `TOOLHOST_MODEL_CONNECTIONS`), serving `openai` and within the publishing key's `connections`; else 422 `unknown_reference` here. The connection holds the endpoint and the key: `base_url` and `api_key_env` are refused (422 `unknown_field`). */
            connection: string;
            /** @description The model name the endpoint knows. */
            model: string;
            /** @description Output tokens a request may use, reserved in the context window (default 4096). */
            max_output_tokens?: number;
            /** @description Sampling temperature (the provider's default when absent). */
            temperature?: number;
        };
        /** @description Candidate calls, oldest first, and pending business cancellations. */
        PendingAnswer: {
            /** @description Claimable calls on the connection's bindings, oldest first. */
            data: components["schemas"]["PendingCall"][];
            /** @description Calls this executor holds (claimed or accepted) whose business task was asked to stop, oldest first. */
            cancellations: components["schemas"]["CancellationRequest"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
            /** @description Only with `claim`: the claims made for this request, each exactly what the claim route answers (arguments and grant included); these calls are not in `data`. */
            claims?: components["schemas"]["ClaimAnswer"][];
        };
        /** @description A call the executor may try to claim. */
        PendingCall: {
            /** @description The call's run. */
            run_id: string;
            /** @description The call. */
            call_id: string;
            /** @description The tool's name. */
            tool_name: string;
            /** @description The binding the tool runs on (one of the connection's). */
            binding_id: string;
            /**
             * Format: date-time
             * @description When the call was created.
             */
            created_at: string;
            /** @description The W3C `traceparent` of the call's `toolhost.tool_call` span, in the trace of the run that planned it; absent when the server had no trace context. Start the handler's span as its child or link to it. Not part of any digest. */
            traceparent?: string;
        };
        /** @description A receipt of kind `progress`. */
        ProgressReceipt: {
            /** @description The executor's ID of this receipt; a redelivery reuses it with the same body. */
            receipt_id: string;
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant the claim answered; it expires with the call's deadline. */
            grant: string;
            /** @description Interim progress (only on `progress`). */
            progress?: {
                [key: string]: unknown;
            };
            /**
             * @description Always `progress`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "progress";
        };
        /** @description The server can serve requests: its storage answers. */
        Readiness: {
            /**
             * @description Always `ready` in a 200 answer.
             * @constant
             */
            status: "ready";
            /**
             * @description The database answered a round trip just now.
             * @constant
             */
            storage: "available";
        };
        /** @description What the server did with a receipt. */
        ReceiptAnswer: {
            /** @description The receipt's ID. */
            receipt_id: string;
            /**
             * @description The receipt's kind.
             * @enum {unknown}
             */
            kind: "accepted" | "progress" | "completed" | "failed" | "cancelled" | "reconciliation_required";
            /** @description True when this receipt was received before: the first answer again, with `confirmed`, `call_status` and `run_status` as they are now. */
            replayed: boolean;
            /** @description Only for `accepted`: true means start now; false means do not (run ended, claim voided or lapsed, deadline passed). Live on a replay too. */
            confirmed?: boolean;
            /** @description False when the receipt was stored but changed nothing of the run. */
            applied: boolean;
            /**
             * @description The call's status after the receipt.
             * @enum {unknown}
             */
            call_status: "pending" | "claimed" | "accepted" | "completed" | "failed" | "cancelled" | "reconciliation_required" | "expired";
            /**
             * @description The run's status after the receipt.
             * @enum {unknown}
             */
            run_status: "queued" | "running" | "waiting_for_tools" | "completed" | "failed" | "cancelled" | "expired";
        };
        /** @description One answer per receipt, in the order of the request. */
        ReceiptBatchAnswer: {
            /** @description The answers, in the order of the receipts. */
            data: components["schemas"]["ReceiptBatchItemAnswer"][];
        };
        /** @description The per-call route's answer to one receipt: status and body. */
        ReceiptBatchItemAnswer: {
            /** @description The call's run. */
            run_id: string;
            /** @description The call. */
            call_id: string;
            /** @description The HTTP status the per-call route answers for this receipt (200, or its error's status). */
            status: number;
            /** @description The per-call route's body: the receipt answer (`receipt_id`, `kind`, `replayed`, …) on 200, the error body (`{error: {code, message, …}}`) otherwise. */
            body: unknown;
        };
        /** @description Receipts of many calls of one executor, recorded in order. */
        ReceiptBatchRequest: {
            /** @description The receipts (1 to 100), each naming this executor; one call's receipts are recorded in this order. */
            receipts: components["schemas"]["BatchedReceipt"][];
        };
        /** @description A receipt of a claimed call, by `kind`; stored exactly as received. */
        ReceiptRequest: components["schemas"]["AcceptedReceipt"] | components["schemas"]["ProgressReceipt"] | components["schemas"]["CompletedReceipt"] | components["schemas"]["FailedReceipt"] | components["schemas"]["CancelledReceipt"] | components["schemas"]["ReconciliationRequiredReceipt"];
        /** @description Runs in the credential's agent scope, newest first. */
        RecentRunList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["Run"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description A receipt of kind `reconciliation_required`. */
        ReconciliationRequiredReceipt: {
            /** @description The executor's ID of this receipt; a redelivery reuses it with the same body. */
            receipt_id: string;
            /** @description The executor's stable ID, chosen by the product. */
            executor_id: string;
            /** @description The claim's ID, as the claim answered it. */
            claim_id: string;
            /** @description The per-call grant the claim answered; it expires with the call's deadline. */
            grant: string;
            /** @description The product's error object (required on `failed`; allowed on `cancelled` and `reconciliation_required`). */
            error?: {
                [key: string]: unknown;
            };
            /**
             * @description Always `reconciliation_required`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "reconciliation_required";
        };
        /** @description The server's answer per reported call, in request order. */
        ReportAnswer: {
            /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
            executor_id: string;
            /** @description One answer per reported call, in request order. */
            calls: components["schemas"]["CallReport"][];
        };
        /** @description A call the executor holds in its journal. */
        ReportedCall: {
            /** @description The call. */
            call_id: string;
            /** @description The claim the executor holds it under. */
            claim_id?: string;
            /**
             * @description `pending_delivery` (receipts not yet delivered) or `pending_reconciliation` (outcome unknown).
             * @enum {unknown}
             */
            state: "pending_delivery" | "pending_reconciliation";
            /** @description The receipts the executor saved for this call. */
            receipt_ids?: string[];
        };
        /** @description The calls the executor holds as pending delivery or reconciliation. */
        ReportRequest: {
            /** @description The connection's ID, as connect answered it. */
            connection_id: string;
            /** @description The calls, in any order. */
            calls: components["schemas"]["ReportedCall"][];
        };
        /** @description A revoked API key. */
        RevokedKey: {
            /** @description The key's ID. */
            key_id: string;
            /**
             * @description Always true.
             * @constant
             */
            revoked: true;
            /**
             * Format: date-time
             * @description When the key was (first) revoked.
             */
            revoked_at: string;
        };
        /** @description A run: one execution of the session's agent version. */
        Run: {
            /** @description The run's ID. */
            run_id: string;
            /** @description The session the run belongs to. */
            session_id: string;
            /** @description The session's agent. */
            agent_id: string;
            /** @description The session's pinned agent version. */
            agent_version: string;
            /**
             * @description `queued`, `running`, `waiting_for_tools`, or the terminal `completed`, `failed`, `cancelled`, `expired`.
             * @enum {unknown}
             */
            status: "queued" | "running" | "waiting_for_tools" | "completed" | "failed" | "cancelled" | "expired";
            /** @description The model's final message; only on a completed run. */
            output?: string;
            error?: components["schemas"]["RunError"];
            /**
             * Format: date-time
             * @description When the run was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the run last changed.
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the run reached a terminal status.
             */
            ended_at?: string;
        };
        /** @description Why the run failed. */
        RunError: {
            /** @description Stable: `script_exhausted`, `context_window_exceeded`, `model_error`, … */
            code: string;
            /** @description For people; may change. */
            message: string;
        };
        /** @description Runs of one session, in creation order. */
        RunList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["Run"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description The built-in scripted model: one step per model turn. */
        ScriptedModelSettings: {
            /**
             * @description The built-in scripted model.
             * @constant
             */
            provider: "scripted";
            /** @description The steps, played in order. */
            script: components["schemas"]["ScriptStep"][];
        };
        /** @description A tool call the scripted model emits. */
        ScriptedToolCall: {
            /** @description The tool to call; a name the toolset lacks makes the run answer the call with an error. */
            name: string;
            /** @description The call's arguments; the run checks them against the tool's input schema. */
            arguments: {
                [key: string]: unknown;
            };
        };
        /** @description One model turn of the script. */
        ScriptStep: {
            /** @description The calls, in order. */
            tool_calls: components["schemas"]["ScriptedToolCall"][];
        } | {
            /** @description The run's output. */
            message: string;
        };
        /** @description A session: one agent version, one subject. */
        Session: {
            /** @description The session's ID. */
            session_id: string;
            /** @description The pinned agent version (opaque `agv_…` ID). */
            agent_version: string;
            /** @description The agent of that version. */
            agent_id: string;
            /** @description The end user or account the session's runs act for, as the product names it (1–256 characters). */
            subject: string;
            /**
             * Format: date-time
             * @description When the session was created.
             */
            created_at: string;
        };
        /** @description Sessions in creation order. */
        SessionList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["Session"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description The model settings as published. Versions published before model connections may still carry `base_url`/`api_key_env` (their runs fail `model_error`). */
        StoredModelSettings: components["schemas"]["ModelSettings"] | components["schemas"]["LegacyProviderModelSettings"];
        /** @description A receipt as the server stored it (its first delivery). */
        StoredReceipt: {
            /** @description The executor's receipt ID. */
            receipt_id: string;
            /** @description 1, 2, … per call, in arrival order. */
            seq: number;
            /**
             * @description `accepted`, `progress`, `completed`, `failed`, `cancelled` or `reconciliation_required`.
             * @enum {unknown}
             */
            kind: "accepted" | "progress" | "completed" | "failed" | "cancelled" | "reconciliation_required";
            /** @description The executor that sent it. */
            executor_id: string;
            /** @description The claim it was sent under. */
            claim_id: string;
            /** @description False when it arrived after the run had ended (stored, but it changed no history: a late receipt). */
            applied: boolean;
            /** @description Size of the body as received, in bytes. */
            body_bytes: number;
            /**
             * Format: date-time
             * @description When the server stored it.
             */
            created_at: string;
        };
        /** @description A tool definition with every default filled in. */
        Tool: {
            /** @description Unique within the toolset version; 1–128 of `A–Z a–z 0–9 _ . -`. */
            name: string;
            /** @description Shown to the model. Default `""`. */
            description: string;
            /** @description The executor binding that runs the tool: registered and in the credential's binding scope. */
            binding_id: string;
            /** @description A JSON Schema (draft 2020-12) with `"type": "object"`; the call arguments must match it. */
            input_schema: {
                [key: string]: unknown;
            };
            /** @description A JSON Schema (draft 2020-12) describing results. Default `{}` (any result). */
            output_schema: {
                [key: string]: unknown;
            };
            /** @description Bytes of compact JSON (UTF-8) of a result that the model sees; not tokens. 1024–32768, default 16384. `max_result_tokens` and `max_result_bytes` were removed (422 `field_removed`, no alias). */
            max_result_context_bytes: number;
            /**
             * @description `"write"` (changes business state; the default) or `"read"`.
             * @enum {unknown}
             */
            effect: "write" | "read";
            /** @description The call's timeout in milliseconds: 1–86400000, default 300000. */
            timeout_ms: number;
        };
        /** @description A tool call of a run, or a compensation call linked to one. */
        ToolCall: {
            /** @description The tool call's ID. */
            call_id: string;
            /** @description The run's ID. */
            run_id: string;
            /** @description The model turn (0, 1, …) that emitted it; absent on compensation calls. */
            turn?: number;
            /** @description The tool's name in the run's toolset version. */
            tool_name: string;
            /** @description The executor binding that runs the tool; absent when the model named a tool the toolset lacks. */
            binding_id?: string;
            /**
             * @description `read` or `write`, from the tool definition.
             * @enum {unknown}
             */
            effect: "write" | "read";
            /**
             * @description `pending`, `claimed`, `accepted`, `reconciliation_required`, or the final `completed`, `failed`, `cancelled`, `expired`.
             * @enum {unknown}
             */
            status: "pending" | "claimed" | "accepted" | "completed" | "failed" | "cancelled" | "reconciliation_required" | "expired";
            /**
             * @description Set when the server refused the call before any executor saw it (status `failed`); the model got the error as the tool result.
             * @enum {unknown}
             */
            rejected?: "invalid_arguments" | "unknown_tool" | "too_many_calls";
            /** @description The executor holding (or that held) the claim. */
            executor_id?: string;
            /** @description The claim. */
            claim_id?: string;
            /**
             * Format: date-time
             * @description When the current claim was made.
             */
            claimed_at?: string;
            /**
             * Format: date-time
             * @description When the server confirmed the executor's `accepted` receipt.
             */
            accepted_at?: string;
            /** @description On a compensation call: the completed call it compensates. */
            compensates?: string;
            /** @description `sha256:` of the arguments' canonical form. */
            arguments_digest: string;
            /**
             * Format: date-time
             * @description When a business-task cancellation was requested.
             */
            cancel_requested_at?: string;
            /**
             * Format: date-time
             * @description The call's deadline: its creation plus the tool's `timeout_ms`.
             */
            deadline: string;
            /**
             * Format: date-time
             * @description When the call was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the call last changed.
             */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the call reached a final status or `reconciliation_required`.
             */
            settled_at?: string;
        };
        /** @description Tool calls of one run, in creation order (compensation calls included). */
        ToolCallList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["ToolCall"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description A tool definition. Strict: an unknown field is 422 `unknown_field`. */
        ToolInput: {
            /** @description Unique within the toolset version; 1–128 of `A–Z a–z 0–9 _ . -`. */
            name: string;
            /** @description Shown to the model. Default `""`. */
            description?: string;
            /** @description The executor binding that runs the tool: registered and in the credential's binding scope. */
            binding_id: string;
            /** @description A JSON Schema (draft 2020-12) with `"type": "object"`; the call arguments must match it. */
            input_schema: {
                [key: string]: unknown;
            };
            /** @description A JSON Schema (draft 2020-12) describing results. Default `{}` (any result). */
            output_schema?: {
                [key: string]: unknown;
            };
            /** @description Bytes of compact JSON (UTF-8) of a result that the model sees; not tokens. 1024–32768, default 16384. `max_result_tokens` and `max_result_bytes` were removed (422 `field_removed`, no alias). */
            max_result_context_bytes?: number;
            /**
             * @description `"write"` (changes business state; the default) or `"read"`.
             * @enum {unknown}
             */
            effect?: "write" | "read";
            /** @description The call's timeout in milliseconds: 1–86400000, default 300000. */
            timeout_ms?: number;
        };
        /** @description A toolset: a name and its numbered versions. */
        Toolset: {
            /** @description The toolset's ID. */
            toolset_id: string;
            /** @description A label for people. */
            name: string;
            /** @description The highest version number. */
            latest_version: number;
            /**
             * Format: date-time
             * @description When the toolset (and its version 1) was created.
             */
            created_at: string;
        };
        /** @description Toolsets in creation order. */
        ToolsetList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["Toolset"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description An immutable toolset version. */
        ToolsetVersion: {
            /** @description The toolset's ID. */
            toolset_id: string;
            /** @description 1, 2, … in publication order. */
            version: number;
            /** @description The tools, in order, defaults filled in. */
            tools: components["schemas"]["Tool"][];
            /**
             * Format: date-time
             * @description When this version was published.
             */
            created_at: string;
        };
        /** @description Versions of one toolset, oldest first. */
        ToolsetVersionList: {
            /** @description The items of this page, in list order. */
            data: components["schemas"]["ToolsetVersion"][];
            /** @description Pass as `cursor` to read the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description The latest call on the binding completed by an executor. */
        VerifiedExecution: {
            /** @description The run. */
            run_id: string;
            /** @description The call. */
            call_id: string;
            /** @description The tool. */
            tool_name: string;
            /** @description The executor that completed it. */
            executor_id: string;
            /**
             * Format: date-time
             * @description When its final receipt was stored.
             */
            completed_at: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server is up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server can serve requests: its storage answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "storage": "available"
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description API keys in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "key_id": "key_01m8thv51tbvvpa9d01rb2sgw9",
                     *           "name": "bootstrap",
                     *           "scopes": [
                     *             "configuration:read",
                     *             "configuration:write",
                     *             "runtime:read",
                     *             "runtime:write",
                     *             "executors:connect",
                     *             "tools:execute",
                     *             "metrics:read",
                     *             "admin"
                     *           ],
                     *           "agents": "*",
                     *           "bindings": "*",
                     *           "connections": "*",
                     *           "created_at": "2026-12-02T04:57:40.666Z",
                     *           "revoked_at": null
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A new API key; it grants no more than the key that creates it. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "task service executor",
                 *       "scopes": [
                 *         "executors:connect",
                 *         "tools:execute"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateKeyRequest"];
            };
        };
        responses: {
            /** @description A created API key, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key_id": "key_01m8thv5sand1pvn1xmsk3q3fn",
                     *       "name": "task service executor",
                     *       "scopes": [
                     *         "executors:connect",
                     *         "tools:execute"
                     *       ],
                     *       "agents": "*",
                     *       "bindings": "*",
                     *       "connections": "*",
                     *       "created_at": "2026-12-02T04:57:41.418Z",
                     *       "key": "th_Vx3STV_4Eh2PjVG9dn9x7e3Pt0kjFcGtjTSuF5LRlqU"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedKey"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The key's ID. */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A revoked API key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "key_id": "key_01m8thv5sand1pvn1xmsk3q3fn",
                     *       "revoked": true,
                     *       "revoked_at": "2026-12-02T04:57:42.244Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RevokedKey"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    dryRunToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A tool call to check without executing it. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                 *       "tool_name": "tasks.create",
                 *       "arguments": {
                 *         "title": "Buy milk"
                 *       },
                 *       "mock_receipts": [
                 *         {
                 *           "receipt_id": "r-1",
                 *           "kind": "completed",
                 *           "result": {
                 *             "task_id": "task-1",
                 *             "title": "Buy milk"
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["DryRunRequest"];
            };
        };
        responses: {
            /** @description What a tool call would look like to the model; nothing was executed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "tool": {
                     *         "name": "tasks.create",
                     *         "binding_id": "task-service",
                     *         "effect": "write",
                     *         "max_result_context_bytes": 16384
                     *       },
                     *       "arguments": {
                     *         "valid": true,
                     *         "errors": []
                     *       },
                     *       "receipts": [
                     *         {
                     *           "receipt_id": "r-1",
                     *           "kind": "completed",
                     *           "valid": true,
                     *           "errors": []
                     *         }
                     *       ],
                     *       "context_preview": {
                     *         "max_result_context_bytes": 16384,
                     *         "original_bytes": 39,
                     *         "retained_bytes": 39,
                     *         "truncated": false,
                     *         "result": {
                     *           "task_id": "task-1",
                     *           "title": "Buy milk"
                     *         }
                     *       },
                     *       "execution_verified": false
                     *     }
                     */
                    "application/json": components["schemas"]["DryRunAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listBindings: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Executor bindings in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "binding_id": "task-service",
                     *           "name": "Task service",
                     *           "created_at": "2026-12-02T04:57:41.454Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["BindingList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    createBinding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A new executor binding. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "binding_id": "task-service",
                 *       "name": "Task service"
                 *     }
                 */
                "application/json": components["schemas"]["CreateBindingRequest"];
            };
        };
        responses: {
            /** @description An executor binding: a named place where tools execute. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "binding_id": "task-service",
                     *       "name": "Task service",
                     *       "created_at": "2026-12-02T04:57:41.454Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Binding"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "conflict",
                     *         "message": "executor binding \"task-service\" already exists",
                     *         "pointer": "/binding_id",
                     *         "details": {
                     *           "binding_id": "task-service"
                     *         },
                     *         "request_id": "req_01m8thv5tq8y01yzehfzarh6r7"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The binding's ID; tools name it as their `binding_id`. */
                binding_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An executor binding: a named place where tools execute. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "binding_id": "task-service",
                     *       "name": "Task service",
                     *       "created_at": "2026-12-02T04:57:41.454Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Binding"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listToolsets: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Toolsets in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *           "name": "task service",
                     *           "latest_version": 2,
                     *           "created_at": "2026-12-02T04:57:41.632Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ToolsetList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    createToolset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A new toolset and its first version. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "task service",
                 *       "tools": [
                 *         {
                 *           "name": "tasks.create",
                 *           "description": "Creates a task for the current user.",
                 *           "binding_id": "task-service",
                 *           "effect": "write",
                 *           "input_schema": {
                 *             "type": "object",
                 *             "properties": {
                 *               "title": {
                 *                 "type": "string"
                 *               }
                 *             },
                 *             "required": [
                 *               "title"
                 *             ]
                 *           },
                 *           "timeout_ms": 60000
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateToolsetRequest"];
            };
        };
        responses: {
            /** @description A created toolset with its version 1. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *       "version": 1,
                     *       "name": "task service",
                     *       "tools": [
                     *         {
                     *           "name": "tasks.create",
                     *           "description": "Creates a task for the current user.",
                     *           "binding_id": "task-service",
                     *           "input_schema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "title": {
                     *                 "type": "string"
                     *               }
                     *             },
                     *             "required": [
                     *               "title"
                     *             ]
                     *           },
                     *           "output_schema": {},
                     *           "max_result_context_bytes": 16384,
                     *           "effect": "write",
                     *           "timeout_ms": 60000
                     *         }
                     *       ],
                     *       "created_at": "2026-12-02T04:57:41.632Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedToolset"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. `invalid_budget`: max_result_context_bytes must be an integer from 1,024 to 32,768. `invalid_schema`: A JSON Schema is invalid. `schema_too_large`: A JSON Schema exceeds a size limit; the details name the limit, its maximum and the value. `too_many_tools`: A toolset version holds more than 128 tools. `duplicate_tool_name`: Two tools have the same name. `unknown_reference`: A member names an object that does not exist (or that the credential cannot see). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "invalid_budget" | "invalid_schema" | "schema_too_large" | "too_many_tools" | "duplicate_tool_name" | "unknown_reference";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listToolsetVersions: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The toolset's ID. */
                toolset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Versions of one toolset, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *           "version": 1,
                     *           "tools": [
                     *             {
                     *               "name": "tasks.create",
                     *               "description": "Creates a task for the current user.",
                     *               "binding_id": "task-service",
                     *               "input_schema": {
                     *                 "type": "object",
                     *                 "properties": {
                     *                   "title": {
                     *                     "type": "string"
                     *                   }
                     *                 },
                     *                 "required": [
                     *                   "title"
                     *                 ]
                     *               },
                     *               "output_schema": {},
                     *               "max_result_context_bytes": 16384,
                     *               "effect": "write",
                     *               "timeout_ms": 60000
                     *             }
                     *           ],
                     *           "created_at": "2026-12-02T04:57:41.632Z"
                     *         },
                     *         {
                     *           "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *           "version": 2,
                     *           "tools": [
                     *             {
                     *               "name": "tasks.create",
                     *               "description": "Creates a task for the current user.",
                     *               "binding_id": "task-service",
                     *               "input_schema": {
                     *                 "type": "object",
                     *                 "properties": {
                     *                   "title": {
                     *                     "type": "string"
                     *                   }
                     *                 },
                     *                 "required": [
                     *                   "title"
                     *                 ]
                     *               },
                     *               "output_schema": {},
                     *               "max_result_context_bytes": 16384,
                     *               "effect": "write",
                     *               "timeout_ms": 60000
                     *             },
                     *             {
                     *               "name": "tasks.delete",
                     *               "description": "Deletes a task (compensates tasks.create).",
                     *               "binding_id": "task-service",
                     *               "input_schema": {
                     *                 "type": "object",
                     *                 "properties": {
                     *                   "task_id": {
                     *                     "type": "string"
                     *                   }
                     *                 },
                     *                 "required": [
                     *                   "task_id"
                     *                 ]
                     *               },
                     *               "output_schema": {},
                     *               "max_result_context_bytes": 16384,
                     *               "effect": "write",
                     *               "timeout_ms": 300000
                     *             }
                     *           ],
                     *           "created_at": "2026-12-02T04:57:41.651Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ToolsetVersionList"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    publishToolsetVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The toolset's ID. */
                toolset_id: string;
            };
            cookie?: never;
        };
        /** @description The tools of a new toolset version. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tools": [
                 *         {
                 *           "name": "tasks.create",
                 *           "description": "Creates a task for the current user.",
                 *           "binding_id": "task-service",
                 *           "effect": "write",
                 *           "input_schema": {
                 *             "type": "object",
                 *             "properties": {
                 *               "title": {
                 *                 "type": "string"
                 *               }
                 *             },
                 *             "required": [
                 *               "title"
                 *             ]
                 *           },
                 *           "timeout_ms": 60000
                 *         },
                 *         {
                 *           "name": "tasks.delete",
                 *           "description": "Deletes a task (compensates tasks.create).",
                 *           "binding_id": "task-service",
                 *           "effect": "write",
                 *           "input_schema": {
                 *             "type": "object",
                 *             "properties": {
                 *               "task_id": {
                 *                 "type": "string"
                 *               }
                 *             },
                 *             "required": [
                 *               "task_id"
                 *             ]
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateToolsetVersionRequest"];
            };
        };
        responses: {
            /** @description An immutable toolset version. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *       "version": 2,
                     *       "tools": [
                     *         {
                     *           "name": "tasks.create",
                     *           "description": "Creates a task for the current user.",
                     *           "binding_id": "task-service",
                     *           "input_schema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "title": {
                     *                 "type": "string"
                     *               }
                     *             },
                     *             "required": [
                     *               "title"
                     *             ]
                     *           },
                     *           "output_schema": {},
                     *           "max_result_context_bytes": 16384,
                     *           "effect": "write",
                     *           "timeout_ms": 60000
                     *         },
                     *         {
                     *           "name": "tasks.delete",
                     *           "description": "Deletes a task (compensates tasks.create).",
                     *           "binding_id": "task-service",
                     *           "input_schema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "task_id": {
                     *                 "type": "string"
                     *               }
                     *             },
                     *             "required": [
                     *               "task_id"
                     *             ]
                     *           },
                     *           "output_schema": {},
                     *           "max_result_context_bytes": 16384,
                     *           "effect": "write",
                     *           "timeout_ms": 300000
                     *         }
                     *       ],
                     *       "created_at": "2026-12-02T04:57:41.651Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ToolsetVersion"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. `invalid_budget`: max_result_context_bytes must be an integer from 1,024 to 32,768. `invalid_schema`: A JSON Schema is invalid. `schema_too_large`: A JSON Schema exceeds a size limit; the details name the limit, its maximum and the value. `too_many_tools`: A toolset version holds more than 128 tools. `duplicate_tool_name`: Two tools have the same name. `unknown_reference`: A member names an object that does not exist (or that the credential cannot see). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "invalid_budget" | "invalid_schema" | "schema_too_large" | "too_many_tools" | "duplicate_tool_name" | "unknown_reference";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getToolset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The toolset's ID. */
                toolset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A toolset: a name and its numbered versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *       "name": "task service",
                     *       "latest_version": 2,
                     *       "created_at": "2026-12-02T04:57:41.632Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Toolset"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getToolsetVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The toolset's ID. */
                toolset_id: string;
                /** @description The version number. */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An immutable toolset version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *       "version": 2,
                     *       "tools": [
                     *         {
                     *           "name": "tasks.create",
                     *           "description": "Creates a task for the current user.",
                     *           "binding_id": "task-service",
                     *           "input_schema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "title": {
                     *                 "type": "string"
                     *               }
                     *             },
                     *             "required": [
                     *               "title"
                     *             ]
                     *           },
                     *           "output_schema": {},
                     *           "max_result_context_bytes": 16384,
                     *           "effect": "write",
                     *           "timeout_ms": 60000
                     *         },
                     *         {
                     *           "name": "tasks.delete",
                     *           "description": "Deletes a task (compensates tasks.create).",
                     *           "binding_id": "task-service",
                     *           "input_schema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "task_id": {
                     *                 "type": "string"
                     *               }
                     *             },
                     *             "required": [
                     *               "task_id"
                     *             ]
                     *           },
                     *           "output_schema": {},
                     *           "max_result_context_bytes": 16384,
                     *           "effect": "write",
                     *           "timeout_ms": 300000
                     *         }
                     *       ],
                     *       "created_at": "2026-12-02T04:57:41.651Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ToolsetVersion"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Agents in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *           "name": "task assistant",
                     *           "created_at": "2026-12-02T04:57:41.693Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "forbidden",
                     *         "message": "this operation needs the scope configuration:read",
                     *         "details": {
                     *           "required_scopes": [
                     *             "configuration:read"
                     *           ]
                     *         },
                     *         "request_id": "req_01m8thv6k14e2r6kx2pfvdgs61"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A new agent. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "task assistant"
                 *     }
                 */
                "application/json": components["schemas"]["CreateAgentRequest"];
            };
        };
        responses: {
            /** @description An agent; what it runs is pinned by its versions. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "name": "task assistant",
                     *       "created_at": "2026-12-02T04:57:41.693Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unknown_field",
                     *         "message": "unknown field \"colour\"",
                     *         "pointer": "/colour",
                     *         "details": {
                     *           "in": "body",
                     *           "field": "colour"
                     *         },
                     *         "request_id": "req_01m8thv6jz98s1kptd33f07fgy"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listAgentVersions: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The agent's ID. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Versions of one agent, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *           "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *           "toolset_version": 2,
                     *           "model": {
                     *             "provider": "scripted",
                     *             "script": [
                     *               {
                     *                 "tool_calls": [
                     *                   {
                     *                     "name": "tasks.create",
                     *                     "arguments": {
                     *                       "title": "Buy milk"
                     *                     }
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "message": "Done."
                     *               }
                     *             ]
                     *           },
                     *           "instructions": "",
                     *           "max_context_tokens": 200000,
                     *           "max_turns": null,
                     *           "max_tool_calls": null,
                     *           "run_timeout_ms": null,
                     *           "created_at": "2026-12-02T04:57:41.702Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AgentVersionList"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    publishAgentVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's ID. */
                agent_id: string;
            };
            cookie?: never;
        };
        /** @description A new agent version. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                 *       "toolset_version": 2,
                 *       "model": {
                 *         "provider": "scripted",
                 *         "script": [
                 *           {
                 *             "tool_calls": [
                 *               {
                 *                 "name": "tasks.create",
                 *                 "arguments": {
                 *                   "title": "Buy milk"
                 *                 }
                 *               }
                 *             ]
                 *           },
                 *           {
                 *             "message": "Done."
                 *           }
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CreateAgentVersionRequest"];
            };
        };
        responses: {
            /** @description An immutable agent version. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *       "toolset_version": 2,
                     *       "model": {
                     *         "provider": "scripted",
                     *         "script": [
                     *           {
                     *             "tool_calls": [
                     *               {
                     *                 "name": "tasks.create",
                     *                 "arguments": {
                     *                   "title": "Buy milk"
                     *                 }
                     *               }
                     *             ]
                     *           },
                     *           {
                     *             "message": "Done."
                     *           }
                     *         ]
                     *       },
                     *       "instructions": "",
                     *       "max_context_tokens": 200000,
                     *       "max_turns": null,
                     *       "max_tool_calls": null,
                     *       "run_timeout_ms": null,
                     *       "created_at": "2026-12-02T04:57:41.702Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AgentVersion"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. `unknown_reference`: A member names an object that does not exist (or that the credential cannot see). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "unknown_reference";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's ID. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An agent; what it runs is pinned by its versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "name": "task assistant",
                     *       "created_at": "2026-12-02T04:57:41.693Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getAgentVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's ID. */
                agent_id: string;
                /** @description The agent version's opaque ID (`agv_…`). */
                agent_version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An immutable agent version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *       "toolset_version": 2,
                     *       "model": {
                     *         "provider": "scripted",
                     *         "script": [
                     *           {
                     *             "tool_calls": [
                     *               {
                     *                 "name": "tasks.create",
                     *                 "arguments": {
                     *                   "title": "Buy milk"
                     *                 }
                     *               }
                     *             ]
                     *           },
                     *           {
                     *             "message": "Done."
                     *           }
                     *         ]
                     *       },
                     *       "instructions": "",
                     *       "max_context_tokens": 200000,
                     *       "max_turns": null,
                     *       "max_tool_calls": null,
                     *       "run_timeout_ms": null,
                     *       "created_at": "2026-12-02T04:57:41.702Z"
                     *     }
                     */
                    "application/json": components["schemas"]["AgentVersion"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *           "subject": "user-42",
                     *           "created_at": "2026-12-02T04:57:41.743Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A new session. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                 *       "subject": "user-42"
                 *     }
                 */
                "application/json": components["schemas"]["CreateSessionRequest"];
            };
        };
        responses: {
            /** @description A session: one agent version, one subject. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "subject": "user-42",
                     *       "created_at": "2026-12-02T04:57:41.743Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The session's ID. */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A session: one agent version, one subject. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "subject": "user-42",
                     *       "created_at": "2026-12-02T04:57:41.743Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    diagnoseBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent's ID. */
                agent_id: string;
                /** @description The executor binding's ID. */
                binding_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How one agent's versions use one executor binding, and its health. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "binding_id": "task-service",
                     *       "referenced": true,
                     *       "referenced_by": [
                     *         {
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *           "toolset_version": 2
                     *         }
                     *       ],
                     *       "tools": [
                     *         {
                     *           "name": "tasks.create",
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "effect": "write",
                     *           "max_result_context_bytes": 16384
                     *         },
                     *         {
                     *           "name": "tasks.delete",
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "effect": "write",
                     *           "max_result_context_bytes": 16384
                     *         }
                     *       ],
                     *       "executors": {
                     *         "online": [
                     *           {
                     *             "executor_id": "task-service-1",
                     *             "connection_id": "conn_01m8thv6513fgxkaz44km79c6c",
                     *             "connected_at": "2026-12-02T04:57:41.793Z",
                     *             "last_heartbeat_at": "2026-12-02T04:57:41.807Z",
                     *             "lease_expires_at": "2026-12-02T04:57:56.807Z",
                     *             "tool_names": [
                     *               "tasks.create",
                     *               "tasks.delete"
                     *             ]
                     *           }
                     *         ],
                     *         "last_heartbeat_at": "2026-12-02T04:57:41.807Z"
                     *       },
                     *       "calls": {
                     *         "pending": 0,
                     *         "claimed": 0,
                     *         "accepted": 0,
                     *         "reconciliation_required": 0,
                     *         "oldest_pending_age_ms": null
                     *       },
                     *       "last_verified_execution": {
                     *         "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *         "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *         "tool_name": "tasks.create",
                     *         "executor_id": "task-service-1",
                     *         "completed_at": "2026-12-02T04:57:41.959Z"
                     *       },
                     *       "checks": [
                     *         {
                     *           "name": "binding_exists",
                     *           "ok": true,
                     *           "message": "executor binding \"task-service\" is registered"
                     *         },
                     *         {
                     *           "name": "agent_has_versions",
                     *           "ok": true,
                     *           "message": "agent \"agt_01m8thv61x06kz4t29kwgpfbdq\" has published versions"
                     *         },
                     *         {
                     *           "name": "binding_referenced",
                     *           "ok": true,
                     *           "message": "1 version(s) of agent \"agt_01m8thv61x06kz4t29kwgpfbdq\" pin tools on binding \"task-service\": tasks.create, tasks.delete"
                     *         },
                     *         {
                     *           "name": "executor_online",
                     *           "ok": true,
                     *           "message": "1 executor(s) online for binding \"task-service\": task-service-1"
                     *         },
                     *         {
                     *           "name": "tools_served",
                     *           "ok": true,
                     *           "message": "every tool on binding \"task-service\" has an online executor: tasks.create (task-service-1), tasks.delete (task-service-1)"
                     *         },
                     *         {
                     *           "name": "no_stale_pending",
                     *           "ok": true,
                     *           "message": "no call of agent \"agt_01m8thv61x06kz4t29kwgpfbdq\" is pending on binding \"task-service\""
                     *         },
                     *         {
                     *           "name": "no_reconciliation_backlog",
                     *           "ok": true,
                     *           "message": "no call of agent \"agt_01m8thv61x06kz4t29kwgpfbdq\" on binding \"task-service\" waits for reconciliation"
                     *         },
                     *         {
                     *           "name": "execution_verified",
                     *           "ok": true,
                     *           "message": "executor \"task-service-1\" completed call \"call_01m8thv65rmzs1basjzspf5dbj\" (tasks.create) on binding \"task-service\" at 2026-12-02T04:57:41.959Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["BindingDiagnostics"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    claimToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
                /** @description The call's ID. */
                call_id: string;
            };
            cookie?: never;
        };
        /** @description Claims a pending call for one connected executor. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "executor_id": "task-service-1",
                 *       "connection_id": "conn_01m8thv6513fgxkaz44km79c6c"
                 *     }
                 */
                "application/json": components["schemas"]["ClaimRequest"];
            };
        };
        responses: {
            /** @description The claim, its grant and the call. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                     *       "grant": "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
                     *       "replayed": false,
                     *       "call": {
                     *         "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *         "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *         "tool_name": "tasks.create",
                     *         "binding_id": "task-service",
                     *         "effect": "write",
                     *         "arguments": {
                     *           "title": "Buy milk"
                     *         },
                     *         "arguments_digest": "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
                     *         "subject": "user-42",
                     *         "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *         "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *         "toolset_id": "tls_01m8thv600m4d8mw60fzb7rtny",
                     *         "toolset_version": 2,
                     *         "deadline": "2026-12-02T04:58:41.816Z",
                     *         "accept_deadline": "2026-12-02T04:58:11.876Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ClaimAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `already_claimed`: Another executor holds the claim on this call. `run_terminated`: The run has ended. `connection_superseded`: A newer connection of this executor superseded this one. `connection_offline`: This executor connection is offline (lease lapsed or detached); connect again. `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "already_claimed" | "run_terminated" | "connection_superseded" | "connection_offline" | "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listCallReceipts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
                /** @description The tool call's ID. */
                call_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every receipt stored for one call, in arrival order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *       "receipts": [
                     *         {
                     *           "receipt_id": "r-1",
                     *           "seq": 1,
                     *           "kind": "accepted",
                     *           "executor_id": "task-service-1",
                     *           "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                     *           "applied": true,
                     *           "body_bytes": 167,
                     *           "created_at": "2026-12-02T04:57:41.905Z"
                     *         },
                     *         {
                     *           "receipt_id": "r-2",
                     *           "seq": 2,
                     *           "kind": "progress",
                     *           "executor_id": "task-service-1",
                     *           "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                     *           "applied": true,
                     *           "body_bytes": 193,
                     *           "created_at": "2026-12-02T04:57:41.920Z"
                     *         },
                     *         {
                     *           "receipt_id": "r-3",
                     *           "seq": 3,
                     *           "kind": "completed",
                     *           "executor_id": "task-service-1",
                     *           "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                     *           "applied": true,
                     *           "body_bytes": 217,
                     *           "created_at": "2026-12-02T04:57:41.959Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CallReceipts"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    sendReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
                /** @description The call's ID. */
                call_id: string;
            };
            cookie?: never;
        };
        /** @description A receipt of a claimed call. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "receipt_id": "r-1",
                 *       "executor_id": "task-service-1",
                 *       "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                 *       "grant": "DytEoJsfFA3_ZA3cKMUHuOeNd0j_i5KU2exT76aUsrg",
                 *       "kind": "accepted"
                 *     }
                 */
                "application/json": components["schemas"]["ReceiptRequest"];
            };
        };
        responses: {
            /** @description What the server did with a receipt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "receipt_id": "r-1",
                     *       "kind": "accepted",
                     *       "replayed": false,
                     *       "confirmed": true,
                     *       "applied": true,
                     *       "call_status": "accepted",
                     *       "run_status": "waiting_for_tools"
                     *     }
                     */
                    "application/json": components["schemas"]["ReceiptAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. `invalid_grant`: The grant does not belong to this call and claim. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch" | "invalid_grant";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `receipt_conflict`: This receipt ID was sent before with another body. `accept_required`: The call must be accepted first. `call_already_final`: The call already has a final receipt. `progress_limit_exceeded`: The call has the most progress receipts the server keeps per call; send its final receipt. `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "receipt_conflict",
                     *         "message": "receipt \"r-3\" was sent before with another body",
                     *         "details": {
                     *           "receipt_id": "r-3"
                     *         },
                     *         "request_id": "req_01m8thv6b9f35mt7kv4k2rcn7e"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "receipt_conflict" | "accept_required" | "call_already_final" | "progress_limit_exceeded" | "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. `progress_too_large`: The progress value is larger than the server keeps per progress receipt. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large" | "progress_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. `invalid_result`: A tool result does not match its result type. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "invalid_result";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listSessionRuns: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The session's ID. */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs of one session, in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *           "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *           "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "status": "completed",
                     *           "created_at": "2026-12-02T04:57:41.816Z",
                     *           "updated_at": "2026-12-02T04:57:41.978Z",
                     *           "output": "Done.",
                     *           "ended_at": "2026-12-02T04:57:41.978Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["RunList"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The session's ID. */
                session_id: string;
            };
            cookie?: never;
        };
        /** @description A new run of the session's agent version. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "input": "Add 'Buy milk' to my tasks"
                 *     }
                 */
                "application/json": components["schemas"]["CreateRunRequest"];
            };
        };
        responses: {
            /** @description A run: one execution of the session's agent version. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *       "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *       "status": "waiting_for_tools",
                     *       "created_at": "2026-12-02T04:57:41.816Z",
                     *       "updated_at": "2026-12-02T04:57:41.816Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A run: one execution of the session's agent version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *       "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *       "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *       "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *       "status": "completed",
                     *       "created_at": "2026-12-02T04:57:41.816Z",
                     *       "updated_at": "2026-12-02T04:57:41.978Z",
                     *       "output": "Done.",
                     *       "ended_at": "2026-12-02T04:57:41.978Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "run \"run_missing\" not found",
                     *         "request_id": "req_01m8thv6jvv9x67cjg48enfa44"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
            };
            cookie?: never;
        };
        /** @description Cancels the run. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelRunRequest"];
            };
        };
        responses: {
            /** @description The run is cancelled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "run_id": "run_01m8thv6hrryb3kz5shqvp1qkp",
                     *       "status": "cancelled"
                     *     }
                     */
                    "application/json": components["schemas"]["CancelledRun"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `run_terminated`: The run has ended. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "run_terminated",
                     *         "message": "run \"run_01m8thv6hrryb3kz5shqvp1qkp\" has ended (cancelled)",
                     *         "details": {
                     *           "status": "cancelled"
                     *         },
                     *         "request_id": "req_01m8thv6j70w54eh8mwt4qkpbh"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "run_terminated";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listToolCalls: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tool calls of one run, in creation order (compensation calls included). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *           "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *           "tool_name": "tasks.create",
                     *           "effect": "write",
                     *           "status": "completed",
                     *           "arguments_digest": "sha256:6330399f2342cfc9311b85fb26dcac5b706b3080b49e3aadedde2f3a864efdc9",
                     *           "deadline": "2026-12-02T04:58:41.816Z",
                     *           "created_at": "2026-12-02T04:57:41.816Z",
                     *           "updated_at": "2026-12-02T04:57:41.959Z",
                     *           "turn": 0,
                     *           "binding_id": "task-service",
                     *           "executor_id": "task-service-1",
                     *           "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                     *           "claimed_at": "2026-12-02T04:57:41.876Z",
                     *           "accepted_at": "2026-12-02T04:57:41.905Z",
                     *           "settled_at": "2026-12-02T04:57:41.959Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ToolCallList"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    cancelToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
                /** @description The tool call's ID. */
                call_id: string;
            };
            cookie?: never;
        };
        /** @description Asks for the business task behind the call to be cancelled. */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": components["schemas"]["CancelCallRequest"];
            };
        };
        responses: {
            /** @description The cancellation is recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "call_id": "call_01m8thv6gvwrdct16sxj80degw",
                     *       "status": "cancelled",
                     *       "cancel_requested": true
                     *     }
                     */
                    "application/json": components["schemas"]["CallCancelRequested"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `call_already_final`: The call already has a final receipt. `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "call_already_final",
                     *         "message": "tool call \"call_01m8thv65rmzs1basjzspf5dbj\" is already completed",
                     *         "details": {
                     *           "status": "completed"
                     *         },
                     *         "request_id": "req_01m8thv6hk8a8wj5tb80bpx5ak"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "call_already_final" | "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    compensateToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
                /** @description The tool call's ID. */
                call_id: string;
            };
            cookie?: never;
        };
        /** @description A compensating call for a completed write call. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tool_name": "tasks.delete",
                 *       "arguments": {
                 *         "task_id": "task-1"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["CompensateRequest"];
            };
        };
        responses: {
            /** @description A tool call of a run, or a compensation call linked to one. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "call_id": "call_01m8thv6gvwrdct16sxj80degw",
                     *       "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *       "tool_name": "tasks.delete",
                     *       "effect": "write",
                     *       "status": "pending",
                     *       "arguments_digest": "sha256:8076f8fc7f4e66be2f5b3ebd07dba6328ab7043e838b3d7b50037ec25021c811",
                     *       "deadline": "2026-12-02T05:02:42.171Z",
                     *       "created_at": "2026-12-02T04:57:42.171Z",
                     *       "updated_at": "2026-12-02T04:57:42.171Z",
                     *       "binding_id": "task-service",
                     *       "compensates": "call_01m8thv65rmzs1basjzspf5dbj"
                     *     }
                     */
                    "application/json": components["schemas"]["ToolCall"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `not_compensable`: Only a completed call of a write tool can be compensated. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_compensable";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. `unknown_reference`: A member names an object that does not exist (or that the credential cannot see). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "unknown_reference";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getRunHistory: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's history, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "type": "input",
                     *           "input": "Add 'Buy milk' to my tasks"
                     *         },
                     *         {
                     *           "type": "tool_calls",
                     *           "calls": [
                     *             {
                     *               "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *               "name": "tasks.create",
                     *               "arguments": {
                     *                 "title": "Buy milk"
                     *               }
                     *             }
                     *           ]
                     *         },
                     *         {
                     *           "type": "tool_result",
                     *           "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *           "receipt_id": "r-3",
                     *           "context_preview": {
                     *             "max_result_context_bytes": 16384,
                     *             "original_bytes": 39,
                     *             "retained_bytes": 39,
                     *             "truncated": false,
                     *             "result": {
                     *               "task_id": "task-1",
                     *               "title": "Buy milk"
                     *             }
                     *           }
                     *         },
                     *         {
                     *           "type": "message",
                     *           "text": "Done."
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["HistoryPage"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listModelRequests: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The run's ID. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's model requests, in creation order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "request_id": "mrq_01m8thv65rmzs1basjzspf5dbh",
                     *           "turn": 0,
                     *           "purpose": "turn",
                     *           "provider": "scripted",
                     *           "model": "scripted",
                     *           "request_bytes": 290,
                     *           "estimated_input_tokens": 99,
                     *           "actual_input_tokens": null,
                     *           "output_tokens": null,
                     *           "compacted": false,
                     *           "latency_ms": 0,
                     *           "created_at": "2026-12-02T04:57:41.816Z"
                     *         },
                     *         {
                     *           "request_id": "mrq_01m8thv6at8a3jpv06x32p4sfp",
                     *           "turn": 1,
                     *           "purpose": "turn",
                     *           "provider": "scripted",
                     *           "model": "scripted",
                     *           "request_bytes": 361,
                     *           "estimated_input_tokens": 129,
                     *           "actual_input_tokens": null,
                     *           "output_tokens": null,
                     *           "compacted": false,
                     *           "latency_ms": 0,
                     *           "created_at": "2026-12-02T04:57:41.978Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ModelRequestList"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    streamRunEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Resume: only events after this `id:` are sent (what EventSource sends when it reconnects). */
                "last-event-id"?: string;
            };
            path: {
                /** @description The run's ID. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream (`text/event-stream`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed";
                        };
                    };
                };
            };
            /** @description `too_many_streams`: Too many event streams are open (for this key or on this server); retry after the Retry-After delay. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "too_many_streams";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    connectExecutor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Connects an executor for some bindings. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "executor_id": "task-service-1",
                 *       "binding_ids": [
                 *         "task-service"
                 *       ],
                 *       "tool_names": [
                 *         "tasks.create",
                 *         "tasks.delete"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ConnectRequest"];
            };
        };
        responses: {
            /** @description A new connection; any older connection of the executor is fenced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "executor_id": "task-service-1",
                     *       "connection_id": "conn_01m8thv6513fgxkaz44km79c6c",
                     *       "epoch": 1,
                     *       "heartbeat_interval_ms": 5000,
                     *       "lease_ttl_ms": 15000,
                     *       "binding_ids": [
                     *         "task-service"
                     *       ],
                     *       "batch": {
                     *         "claim_max": 32,
                     *         "receipts_max": 100
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ExecutorConnection"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `conflict`: The request conflicts with stored state. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "conflict";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. `unknown_reference`: A member names an object that does not exist (or that the credential cannot see). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed" | "unknown_reference";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    heartbeatExecutor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
                executor_id: string;
            };
            cookie?: never;
        };
        /** @description Names the executor's current connection. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "connection_id": "conn_01m8thv6513fgxkaz44km79c6c"
                 *     }
                 */
                "application/json": components["schemas"]["ConnectionRequest"];
            };
        };
        responses: {
            /** @description The renewed lease and pending business cancellations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "executor_id": "task-service-1",
                     *       "connection_id": "conn_01m8thv6513fgxkaz44km79c6c",
                     *       "lease_expires_at": "2026-12-02T04:57:56.807Z",
                     *       "heartbeat_interval_ms": 5000,
                     *       "cancellations": []
                     *     }
                     */
                    "application/json": components["schemas"]["HeartbeatAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `connection_superseded`: A newer connection of this executor superseded this one. `connection_offline`: This executor connection is offline (lease lapsed or detached); connect again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "connection_offline",
                     *         "message": "connection \"conn_01m8thv6513fgxkaz44km79c6c\" of executor \"task-service-1\" is offline (its lease lapsed or it detached); connect again",
                     *         "request_id": "req_01m8thv6jnyn3mfnk5cs7weyz7"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "connection_superseded" | "connection_offline";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listPendingCalls: {
        parameters: {
            query: {
                /** @description The connection's ID, as connect answered it. */
                connection_id: string;
                /** @description How many candidates to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
                /** @description When no candidate exists, wait up to this long for one (long-poll; default 0, at most 30000). */
                wait_ms?: number;
                /** @description Claim up to this many of the candidates directly (1 to 32; needs `tools:execute` too): the answer's `claims` are what the claim route answers. */
                claim?: number;
            };
            header?: never;
            path: {
                /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
                executor_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Candidate calls, oldest first, and pending business cancellations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *           "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *           "tool_name": "tasks.create",
                     *           "binding_id": "task-service",
                     *           "created_at": "2026-12-02T04:57:41.816Z"
                     *         }
                     *       ],
                     *       "cancellations": [],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["PendingAnswer"];
                };
            };
            /** @description `bad_request`: The HTTP request is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "bad_request";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `connection_superseded`: A newer connection of this executor superseded this one. `connection_offline`: This executor connection is offline (lease lapsed or detached); connect again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "connection_superseded" | "connection_offline";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    reportExecutorCalls: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
                executor_id: string;
            };
            cookie?: never;
        };
        /** @description The calls the executor holds as pending delivery or reconciliation. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "connection_id": "conn_01m8thv6513fgxkaz44km79c6c",
                 *       "calls": [
                 *         {
                 *           "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                 *           "claim_id": "clm_01m8thv67m3hy5sy627w5wx52v",
                 *           "state": "pending_delivery",
                 *           "receipt_ids": [
                 *             "r-1",
                 *             "r-2",
                 *             "r-3"
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ReportRequest"];
            };
        };
        responses: {
            /** @description The server's answer per reported call, in request order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "executor_id": "task-service-1",
                     *       "calls": [
                     *         {
                     *           "call_id": "call_01m8thv65rmzs1basjzspf5dbj",
                     *           "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *           "status": "accepted",
                     *           "run_status": "waiting_for_tools",
                     *           "receipt_ids": [
                     *             "r-1",
                     *             "r-2"
                     *           ],
                     *           "action": "redeliver",
                     *           "reason": "missing_receipts"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ReportAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `connection_superseded`: A newer connection of this executor superseded this one. `connection_offline`: This executor connection is offline (lease lapsed or detached); connect again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "connection_superseded" | "connection_offline";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    disconnectExecutor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
                executor_id: string;
            };
            cookie?: never;
        };
        /** @description Names the executor's current connection. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "connection_id": "conn_01m8thv6513fgxkaz44km79c6c"
                 *     }
                 */
                "application/json": components["schemas"]["ConnectionRequest"];
            };
        };
        responses: {
            /** @description The executor detached. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "executor_id": "task-service-1",
                     *       "online": false,
                     *       "released": []
                     *     }
                     */
                    "application/json": components["schemas"]["DisconnectAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `connection_superseded`: A newer connection of this executor superseded this one. `connection_offline`: This executor connection is offline (lease lapsed or detached); connect again. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "connection_superseded" | "connection_offline";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    postExecutorReceipts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The executor's stable ID, chosen by the product: 1–128 characters of letters, digits and `_ . : -`, starting with a letter or digit. Keep it across restarts: receipts and accepted calls stay with it. */
                executor_id: string;
            };
            cookie?: never;
        };
        /** @description Receipts of many calls of one executor, recorded in order. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReceiptBatchRequest"];
            };
        };
        responses: {
            /** @description One answer per receipt, in the order of the request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiptBatchAnswer"];
                };
            };
            /** @description `invalid_json`: The body is not well-formed JSON. `bad_request`: The HTTP request is malformed. `duplicate_member`: An object in the body holds a member name twice. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "invalid_json" | "bad_request" | "duplicate_member";
                        };
                    };
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. `executor_key_mismatch`: The executor's current connection was opened with another API key; only that key may act for it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden" | "executor_key_mismatch";
                        };
                    };
                };
            };
            /** @description `not_found`: Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "not_found";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `body_too_large`: The body is larger than the configured limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "body_too_large";
                        };
                    };
                };
            };
            /** @description `unsupported_media_type`: The body must be application/json. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unsupported_media_type";
                        };
                    };
                };
            };
            /** @description `lone_surrogate`: A string holds a lone surrogate, which UTF-8 cannot encode. `number_out_of_range`: A number is outside the range of a double. `integer_too_long`: An integer has more than 4,300 digits. `nesting_too_deep`: Arrays and objects are nested too deeply. `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. `field_removed`: A removed field was sent; the details name its replacement. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "lone_surrogate" | "number_out_of_range" | "integer_too_long" | "nesting_too_deep" | "validation_failed" | "unknown_field" | "field_removed";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
                /** @description Only runs in this status (`queued`, `failed`, …). */
                status?: "queued" | "running" | "waiting_for_tools" | "completed" | "failed" | "cancelled" | "expired";
                /** @description Only runs of this agent (an agent outside the key's agent scope lists nothing). */
                agent_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs in the credential's agent scope, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "run_id": "run_01m8thv65rmzs1basjzspf5dbg",
                     *           "session_id": "ses_01m8thv63fx52eapya8jppnasg",
                     *           "agent_id": "agt_01m8thv61x06kz4t29kwgpfbdq",
                     *           "agent_version": "agv_01m8thv626p8hz91xpf5rssa7m",
                     *           "status": "completed",
                     *           "created_at": "2026-12-02T04:57:41.816Z",
                     *           "updated_at": "2026-12-02T04:57:41.978Z",
                     *           "output": "Done.",
                     *           "ended_at": "2026-12-02T04:57:41.978Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["RecentRunList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "the API key is not valid",
                     *         "request_id": "req_01m8thv6jxjsjnqbkgkmfkj021"
                     *       }
                     *     }
                     */
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    listExecutors: {
        parameters: {
            query?: {
                /** @description How many items to answer at most (default 50). */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Executors in the credential's binding scope, by executor ID. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "executor_id": "task-service-1",
                     *           "connection_id": "conn_01m8thv6513fgxkaz44km79c6c",
                     *           "epoch": 1,
                     *           "binding_ids": [
                     *             "task-service"
                     *           ],
                     *           "online": true,
                     *           "connected_at": "2026-12-02T04:57:41.793Z",
                     *           "last_heartbeat_at": "2026-12-02T04:57:41.807Z",
                     *           "lease_expires_at": "2026-12-02T04:57:56.807Z",
                     *           "disconnected_at": null,
                     *           "tool_names": [
                     *             "tasks.create",
                     *             "tasks.delete"
                     *           ]
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["ExecutorList"];
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `validation_failed`: A value does not have the required shape. `unknown_field`: An object holds a field that is not defined. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "validation_failed" | "unknown_field";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics in the Prometheus text format (version 0.0.4). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description `unauthorized`: A valid API key is required. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "unauthorized";
                        };
                    };
                };
            };
            /** @description `forbidden`: The API key lacks the required scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "forbidden";
                        };
                    };
                };
            };
            /** @description `request_timeout`: The request did not arrive in time. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "request_timeout";
                        };
                    };
                };
            };
            /** @description `internal_error`: An internal error occurred. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "internal_error";
                        };
                    };
                };
            };
            /** @description `storage_unavailable`: Storage is unavailable; retry after the Retry-After delay. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: components["schemas"]["ErrorDetail"] & {
                            /** @enum {string} */
                            code: "storage_unavailable";
                        };
                    };
                };
            };
        };
    };
}
