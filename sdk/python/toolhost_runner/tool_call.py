"""What a handler gets: the claimed call (``ToolCall``) and its context (``ToolContext``: the operation
key, progress, business cancel, defer), and the handle of a deferred call."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional

if TYPE_CHECKING:
    from .journal import JournalEntry


@dataclass(frozen=True)
class ToolCall:
    """A claimed call, as the server handed it over (``arguments`` parsed from its exact JSON)."""

    run_id: str
    call_id: str
    tool_name: str
    binding_id: str
    effect: str
    arguments: Any
    arguments_digest: str
    subject: str
    agent_id: str
    agent_version: str
    toolset_id: str
    toolset_version: int
    deadline: str
    accept_deadline: str
    claim_id: str
    operation_key: str
    traceparent: Optional[str] = None

    @staticmethod
    def from_entry(entry: "JournalEntry") -> "ToolCall":
        """The call journaled in ``entry``."""
        call: Dict[str, Any] = json.loads(entry.call_json)
        return ToolCall.from_claim(call, entry.claim_id, entry.operation_key)

    @staticmethod
    def from_claim(call: Dict[str, Any], claim_id: str, operation_key: str) -> "ToolCall":
        """The call of a claim (its ``call`` member), with the claim's ID and the call's operation key."""
        return ToolCall(
            run_id=call["run_id"],
            call_id=call["call_id"],
            tool_name=call["tool_name"],
            binding_id=call["binding_id"],
            effect=call["effect"],
            arguments=call["arguments"],
            arguments_digest=call["arguments_digest"],
            subject=call["subject"],
            agent_id=call["agent_id"],
            agent_version=call["agent_version"],
            toolset_id=call["toolset_id"],
            toolset_version=call["toolset_version"],
            deadline=call["deadline"],
            accept_deadline=call["accept_deadline"],
            claim_id=claim_id,
            operation_key=operation_key,
            traceparent=call.get("traceparent"),
        )


@dataclass(frozen=True)
class DeferredHandle:
    """A call handed to long-running work: finish it with ``runner.complete(handle.id, …)`` / ``runner.fail``."""

    id: str
    call_id: str
    run_id: str
    tool_name: str
    operation_key: str


class ToolContext:
    """The ``ctx`` of one handler invocation."""

    def __init__(
        self,
        call: ToolCall,
        cancelled: threading.Event,
        progress: Callable[[Dict[str, Any]], None],
        defer: Callable[[], DeferredHandle],
    ) -> None:
        self.operation_key = call.operation_key
        # Set when a business cancel was requested for this call: stop, then raise CancelledError.
        self.cancelled = cancelled
        self._progress = progress
        self._defer = defer
        self.handle: Optional[DeferredHandle] = None
        self.open = True

    def progress(self, data: Dict[str, Any]) -> None:
        """Journals a ``progress`` receipt, then delivers it in the background (before the final receipt)."""
        self._progress(data)

    def defer(self) -> DeferredHandle:
        """Hands the call to long-running work (journaled before it returns); the handler's return value is ignored."""
        if self.handle is None:
            self.handle = self._defer()
        return self.handle
