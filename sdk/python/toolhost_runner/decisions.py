"""The runner's pure decisions (no I/O, no clock): whether to serve a claimed call, what a handler's
end means, what one delivery attempt means, what the resolver's answer is, and how to recover each
journal entry after a restart. The rule that keeps products safe: only an explicit confirmation is a
definite outcome; any other exception of a write tool is ``reconciliation_required``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Any, Dict, List, Optional

from .answer_reader import HttpOutcome, is_transient_status
from .errors import BusinessError, CancelledError
from .journal import JournalEntry, OutboxReceipt
from .measure import arguments_digest, compact_text

# Longest exception message copied into a receipt.
ERROR_MESSAGE_MAX_LENGTH = 500

# Most receipt IDs the server takes per reported call.
REPORTED_RECEIPT_IDS_MAX = 100

FINAL_CALL_STATUSES = frozenset(("completed", "failed", "cancelled", "expired"))

# Report reasons meaning the call is not (or no longer) this executor's to run.
_NOT_OURS = frozenset(("unknown_call", "call_closed", "not_held", "run_ended"))


def backoff_delay_s(attempt: int, min_s: float, max_s: float, random: float) -> float:
    """Exponential backoff with full jitter above half the step: ``attempt`` 0 waits about ``min_s``."""
    step = min(max_s, min_s * (2 ** min(attempt, 30)))
    return step / 2 + random * step / 2


def error_object(code: str, message: str, details: Any = None) -> Dict[str, Any]:
    """A receipt's error object ``{code, message, details?}``."""
    error: Dict[str, Any] = {"code": code, "message": _clip(message)}
    if details is not None:
        error["details"] = details
    return error


def _clip(text: str) -> str:
    return text if len(text) <= ERROR_MESSAGE_MAX_LENGTH else text[: ERROR_MESSAGE_MAX_LENGTH - 1] + "…"


@dataclass(frozen=True)
class ClaimVerdict:
    """Whether to serve a claimed call: ``serve``, ``decline`` (never accept: another executor may) or
    ``refuse`` (accept, then report ``failed`` with ``code`` without running anything)."""

    type: str
    code: str = ""
    message: str = ""


def verify_claim(
    call: Dict[str, Any],
    registered_effect: Optional[str],
    binding_ids: List[str],
    agent_ids: Optional[AbstractSet[str]] = None,
) -> ClaimVerdict:
    """Checks a claimed call against the runner's registrations, the agents it works for (``agent_ids``,
    None: every agent) and the arguments' digest. The product's ``authorize`` comes after these."""
    if registered_effect is None:
        return ClaimVerdict("decline", "tool_not_registered", f"no handler for {call['tool_name']}")
    if call["binding_id"] not in binding_ids:
        return ClaimVerdict("decline", "binding_not_served", f"binding {call['binding_id']} is not served here")
    if call["effect"] == "write" and registered_effect != "write":
        return ClaimVerdict("decline", "effect_mismatch", "a write call is never run by a handler registered as read")
    if agent_ids is not None and call["agent_id"] not in agent_ids:
        return ClaimVerdict("decline", "agent_not_allowed", f"agent {call['agent_id']} is not served by this executor")
    try:
        digest = arguments_digest(call["arguments"])
    except (ValueError, TypeError, UnicodeEncodeError, RecursionError):
        digest = ""
    if digest != call["arguments_digest"]:
        return ClaimVerdict("refuse", "arguments_digest_mismatch", "the arguments do not match their digest")
    return ClaimVerdict("serve")


def receipt_body_text(executor_id: str, claim_id: str, grant: str, receipt_id: str, draft: Dict[str, Any]) -> str:
    """The exact body text of a receipt of one claim (journaled, then sent on every delivery)."""
    body: Dict[str, Any] = {
        "receipt_id": receipt_id,
        "executor_id": executor_id,
        "claim_id": claim_id,
        "grant": grant,
        "kind": draft["kind"],
    }
    for name in ("result", "result_type", "error", "progress"):
        if name in draft:
            body[name] = draft[name]
    return compact_text(body)


@dataclass(frozen=True)
class HandlerOutcome:
    """What to journal after a handler: ``draft`` moving the call to ``state`` (None: it deferred)."""

    draft: Optional[Dict[str, Any]]
    state: str
    code: str


def _json_or_none(value: Any) -> Optional[str]:
    """Why ``value`` cannot be sent as JSON (UTF-8 included), or None."""
    try:
        compact_text(value).encode("utf-8")
        return None
    except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as error:
        return f"{type(error).__name__}: {error}"


def decide_handler_outcome(
    returned: bool, value: Any, effect: str, deferred: bool, result_type: Optional[str]
) -> HandlerOutcome:
    """The outcome of a handler that returned ``value`` (``returned``) or raised ``value``."""
    if returned:
        if deferred:
            return HandlerOutcome(None, "deferred", "deferred")
        problem = _json_or_none(value)
        if problem is not None:
            # The side effect may have happened and its result cannot be reported: only the product knows.
            return _unknown(effect, "invalid_result", problem)
        draft: Dict[str, Any] = {"kind": "completed", "result": value}
        if result_type is not None:
            draft["result_type"] = result_type
        return HandlerOutcome(draft, "finishing", "completed")
    if isinstance(value, CancelledError):
        details = value.details if _json_or_none(value.details) is None else None
        return HandlerOutcome(
            {"kind": "cancelled", "error": error_object("cancelled", value.message, details)}, "finishing", "cancelled"
        )
    if isinstance(value, BusinessError):
        details = value.details if _json_or_none(value.details) is None else None
        return HandlerOutcome(
            {"kind": "failed", "error": error_object(str(value.code), str(value.message), details)}, "finishing", "failed"
        )
    return _unknown(effect, "handler_exception", f"{type(value).__name__}: {value}")


def _unknown(effect: str, code: str, message: str) -> HandlerOutcome:
    error = error_object(code, message)
    if effect == "read":
        return HandlerOutcome({"kind": "failed", "error": error}, "finishing", code)
    return HandlerOutcome({"kind": "reconciliation_required", "error": error}, "reconciling", code)


@dataclass(frozen=True)
class DeliveryVerdict:
    """After one delivery attempt: ``acked`` (journal it delivered), ``retry`` (same ID and body, later;
    ``key_refused`` when the refusal concerns the runner's key) or ``rejected`` (refused for good)."""

    type: str
    answer: Optional[Dict[str, Any]] = None
    code: str = ""
    message: str = ""
    status: int = 0
    key_refused: bool = False


def refuses_the_key(outcome: HttpOutcome) -> bool:
    """A refusal of the runner's key itself (not of one call): retried until the key is fixed."""
    return outcome.type == "refused" and (
        outcome.status == 401
        or (outcome.status == 403 and outcome.code in ("forbidden", "executor_key_mismatch"))
    )


def decide_delivery(outcome: HttpOutcome) -> DeliveryVerdict:
    """The verdict on one attempt's outcome."""
    if outcome.type == "answer":
        return DeliveryVerdict("acked", answer=outcome.body)
    if outcome.type == "refused" and not is_transient_status(outcome.status):
        if refuses_the_key(outcome):
            return DeliveryVerdict("retry", code=outcome.code, status=outcome.status, key_refused=True)
        return DeliveryVerdict("rejected", code=outcome.code, message=outcome.message, status=outcome.status)
    return DeliveryVerdict("retry", code=outcome.code or outcome.type, status=outcome.status, message=outcome.message)


def refused_result_draft(code: str, message: str) -> Dict[str, Any]:
    """The ``failed`` receipt that replaces a ``completed`` the server refused for good (too large, invalid):
    the call must still end, and the model learns why."""
    return {"kind": "failed", "error": error_object("result_refused", f"the server refused the result ({code}): {message}")}


def is_result_refusal(kind: str, verdict: DeliveryVerdict) -> bool:
    """True when a refused ``completed`` should be replaced by ``refused_result_draft`` (a 413 or 422 of its body)."""
    return kind == "completed" and verdict.type == "rejected" and verdict.status in (413, 422)


def reconcile_draft(outcome: Any, result_type: Optional[str]) -> Optional[Dict[str, Any]]:
    """The terminal receipt a resolver's answer asks for, or None when it cannot be sent (asked again later)."""
    if not isinstance(outcome, dict):
        return None
    kind = outcome.get("kind")
    draft: Optional[Dict[str, Any]] = None
    if kind == "completed" and "result" in outcome:
        draft = {"kind": "completed", "result": outcome["result"]}
        chosen = outcome.get("result_type", result_type)
        if chosen is not None:
            draft["result_type"] = chosen
    elif kind == "failed" and isinstance(outcome.get("error"), dict):
        error = outcome["error"]
        draft = {"kind": "failed", "error": error_object(str(error.get("code", "failed")), str(error.get("message", "")), error.get("details"))}
    elif kind == "cancelled":
        draft = {"kind": "cancelled", "error": error_object("cancelled", str(outcome.get("message", "cancelled")))}
    if draft is None or _json_or_none(draft) is not None:
        return None
    return draft


def reported_call_of(entry: JournalEntry, receipts: List[OutboxReceipt]) -> Optional[Dict[str, Any]]:
    """The reported form of ``entry`` for ``calls/report``, or None when it is not reported."""
    if entry.state in ("accepting", "finishing"):
        state = "pending_delivery"
    elif entry.state == "running":
        state = "pending_delivery" if entry.effect == "read" else "pending_reconciliation"
    elif entry.state == "reconciling":
        state = "pending_reconciliation"
    else:
        return None
    listed = [r for r in receipts if r.state != "obsolete"]
    # Pending receipts first: those are the ones whose arrival is in doubt.
    ordered = [r for r in listed if r.state == "pending"] + [r for r in listed if r.state != "pending"]
    return {
        "call_id": entry.call_id,
        "claim_id": entry.claim_id,
        "state": state,
        "receipt_ids": [r.receipt_id for r in ordered[:REPORTED_RECEIPT_IDS_MAX]],
    }


@dataclass(frozen=True)
class RecoveryStep:
    """What to do with one journal entry after the report: ``resume_accept``, ``abandon``, ``deliver``,
    ``reconcile`` (``send_unknown``: journal and send ``reconciliation_required`` first), ``rerun`` (a
    read), ``close`` or ``wait``."""

    type: str
    reason: str = ""
    send_unknown: bool = False


def plan_recovery(entry: JournalEntry, report: Optional[Dict[str, Any]]) -> RecoveryStep:
    """The step for ``entry`` given the server's report of it (None: the server said nothing about it)."""
    if entry.state in ("deferred", "done", "abandoned") or report is None:
        return RecoveryStep("wait")
    reason = report["reason"]
    not_ours = report["action"] == "run_terminated" or (report["action"] == "nothing" and reason in _NOT_OURS)
    final = report.get("status") in FINAL_CALL_STATUSES
    if entry.state == "accepting":
        # `running` is journaled before a handler is called: this one never ran.
        if not_ours or reason == "settled":
            return RecoveryStep("abandon", reason)
        return RecoveryStep("resume_accept")
    if entry.state in ("running", "reconciling"):
        if not_ours:
            return RecoveryStep("close", reason)
        if final:
            return RecoveryStep("close", "settled")
        if entry.state == "running" and entry.effect == "read":
            return RecoveryStep("rerun")
        return RecoveryStep(
            "reconcile", send_unknown=entry.state == "running" and report.get("status") != "reconciliation_required"
        )
    return RecoveryStep("deliver")
