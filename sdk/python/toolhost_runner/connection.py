"""The executor's connection: connect with the stable executor ID (a reconnect fences the previous
connection of a crashed process), reconnect after a lapsed lease (409 ``connection_offline``), and tell
fencing apart from a stale answer: ``connection_superseded`` for the current connection means another
process took the executor ID over — unless this runner is replacing that connection itself (a request
made on it can be answered ``connection_superseded`` once the reconnect reached the server, before its
answer came back: that is this process's own reconnect, not another's)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, Optional

from .answer_reader import is_transient_status
from .errors import RunnerError

if TYPE_CHECKING:
    from .runner import ToolRunner


@dataclass(frozen=True)
class Connection:
    """One connection the server made for this executor."""

    connection_id: str
    epoch: int
    heartbeat_interval_s: float
    batch: Optional[Dict[str, Any]]


class ConnectionManager:
    """Holds the current connection; one connect at a time."""

    def __init__(self, rt: "ToolRunner") -> None:
        self._rt = rt
        self._lock = threading.Lock()
        self._reconnect_lock = threading.Lock()
        self.current: Optional[Connection] = None
        # The connection a reconnect of this runner is replacing, while that reconnect is on its way.
        self._replacing: Optional[str] = None

    def connect(self, channel: str = "connect", deadline: Optional[float] = None) -> Optional[Connection]:
        """Connects (retrying trouble); None once the runner stops or fails. A refusal at the first
        connect raises ``connect_refused``; on a reconnect it counts as trouble until the grace ends."""
        rt = self._rt
        first = self.current is None
        while not rt._stopping.is_set():
            outcome = rt._client.connect(rt.executor_id, rt.binding_ids, rt._registry.tool_names())
            if outcome.type == "answer":
                body = outcome.body
                rt._watch.clear(channel)
                connection = Connection(
                    body["connection_id"], body["epoch"], body["heartbeat_interval_ms"] / 1000, body.get("batch")
                )
                with self._lock:
                    self.current = connection
                rt._stats_add("connects")
                rt._emit("connected", {"connection_id": connection.connection_id, "epoch": connection.epoch})
                return connection
            refused = outcome.type == "refused" and not is_transient_status(outcome.status)
            if refused and first:
                raise RunnerError("connect_refused", f"the server refused the connection: {outcome.status} {outcome.code} {outcome.message}")
            if deadline is not None and time.monotonic() >= deadline:
                raise RunnerError("connect_timeout", f"the server did not answer the connect in time ({outcome.code or outcome.message})")
            decision = rt._watch.report(channel, "refused" if refused else "transient", outcome.code or outcome.type, outcome.message)
            if decision.fatal:
                rt._fail(RunnerError("connect_refused", f"reconnecting was refused for too long: {outcome.code}"))
                return None
            rt._stopping.wait(decision.delay_s)
        return None

    def handle_refusal(self, connection_id: str, code: str, details: Dict[str, Any]) -> str:
        """After a refusal naming ``connection_id``: ``reconnected``, ``stale`` (we reconnected meanwhile),
        ``fenced`` (another process took the ID: the runner fails) or ``other`` (not about the connection)."""
        if code not in ("connection_offline", "connection_superseded"):
            return "other"
        with self._lock:
            current = self.current
            replacing = self._replacing
        if current is None or current.connection_id != connection_id:
            return "stale"
        if code == "connection_superseded" and replacing == connection_id:
            # Retried once that reconnect is over (on the new connection), not in a loop meanwhile.
            with self._reconnect_lock:
                return "stale"
        if code == "connection_superseded":
            rt = self._rt
            rt._emit("fenced", {"connection_id": connection_id, "current_epoch": details.get("current_epoch")})
            rt._fenced = True
            rt._fail(RunnerError("fenced", f"another process connected as {rt.executor_id} (epoch {details.get('current_epoch')})"))
            return "fenced"
        # One reconnect for every thread that saw the lapse: the others find a new connection.
        with self._reconnect_lock:
            if self.current is not None and self.current.connection_id != connection_id:
                return "stale"
            with self._lock:
                self._replacing = connection_id
            try:
                return "reconnected" if self.connect("connect") is not None else "fenced"
            finally:
                with self._lock:
                    self._replacing = None
