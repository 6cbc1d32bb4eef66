"""The shapes of the server's answers the runner reads (the members it uses), from the wire schemas
of the public HTTP API (GET /v1/openapi.json); checked by answer_reader.shape_problem."""

from __future__ import annotations

from .answer_reader import Nullable, OneOf, Optional_

CALL_STATUSES = OneOf(
    ("pending", "claimed", "accepted", "reconciliation_required", "completed", "failed", "cancelled", "expired")
)
RECEIPT_KINDS = OneOf(("accepted", "progress", "completed", "failed", "cancelled", "reconciliation_required"))

# POST /v1/executors/connect
CONNECT_ANSWER = {
    "executor_id": "string",
    "connection_id": "string",
    "epoch": "integer",
    "heartbeat_interval_ms": "integer",
    "lease_ttl_ms": "integer",
    "binding_ids": ["string"],
    "batch": Optional_({"claim_max": "integer", "receipts_max": "integer"}),
}

CANCELLATION = {"run_id": "string", "call_id": "string"}

# POST /v1/executors/{executor_id}/heartbeat
HEARTBEAT_ANSWER = {"connection_id": "string", "heartbeat_interval_ms": "integer", "cancellations": [CANCELLATION]}

# The call a claim hands over.
CLAIMED_CALL = {
    "run_id": "string",
    "call_id": "string",
    "tool_name": "string",
    "binding_id": "string",
    "effect": OneOf(("read", "write")),
    "arguments": "any",
    "arguments_digest": "string",
    "subject": "string",
    "agent_id": "string",
    "agent_version": "string",
    "toolset_id": "string",
    "toolset_version": "integer",
    "deadline": "string",
    "accept_deadline": "string",
}

# POST /v1/runs/{run_id}/tool-calls/{call_id}/claim
CLAIM_ANSWER = {"claim_id": "string", "grant": "string", "replayed": "boolean", "call": CLAIMED_CALL}

# GET /v1/executors/{executor_id}/pending
PENDING_ANSWER = {
    "data": [{"run_id": "string", "call_id": "string", "tool_name": "string", "binding_id": "string"}],
    "cancellations": [CANCELLATION],
    "next_cursor": Nullable("string"),
    "claims": Optional_([CLAIM_ANSWER]),
}

# POST /v1/runs/{run_id}/tool-calls/{call_id}/receipts
RECEIPT_ANSWER = {
    "receipt_id": "string",
    "kind": RECEIPT_KINDS,
    "replayed": "boolean",
    "confirmed": Optional_("boolean"),
    "applied": "boolean",
    "call_status": CALL_STATUSES,
    "run_status": "string",
}

# POST /v1/executors/{executor_id}/receipts
RECEIPT_BATCH_ANSWER = {"data": [{"run_id": "string", "call_id": "string", "status": "integer", "body": "any"}]}

# POST /v1/executors/{executor_id}/calls/report
REPORT_ANSWER = {
    "calls": [
        {
            "call_id": "string",
            "status": Nullable(CALL_STATUSES),
            "receipt_ids": ["string"],
            "action": OneOf(("redeliver", "reconcile", "nothing", "run_terminated")),
            "reason": "string",
        }
    ]
}

# POST /v1/executors/{executor_id}/disconnect
DISCONNECT_ANSWER = {"released": ["string"]}
