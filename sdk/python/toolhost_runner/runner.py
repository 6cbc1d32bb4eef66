"""ToolRunner: what a product embeds to execute toolhost tool calls. It registers the product's tools,
connects with a stable executor ID, claims calls and runs them in the protocol's order with a local
SQLite journal, so a crash at any moment neither loses an outcome nor applies a side effect twice
(docs/runner-python.md). ``run()`` blocks until ``stop()``, SIGTERM or SIGINT, then drains."""

from __future__ import annotations

import logging
import re
import signal
import sqlite3
import threading
import time
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Set

from .cancellations import CancellationBook
from .connection import ConnectionManager
from .delivery import ReceiptDelivery, journal_receipt
from .decisions import error_object
from .errors import BusinessError, CancelledError, RunnerError
from .journal import Journal
from .loops import heartbeat_loop, maintenance_loop, pending_loop
from .measure import compact_text
from .recovery import recover_journal
from .registry import Registration, Registry
from .server_client import ServerClient
from .tool_call import DeferredHandle, ToolCall
from .tool_slots import ToolSlots
from .trouble_watch import TroubleWatch

_EXECUTOR_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$")

# Events a listener may subscribe to with ``runner.on`` (run synchronously at that exact step).
RUNNER_EVENTS = (
    "connected", "fenced", "claimed", "declined", "assignment_journaled", "accept_sent", "confirmed", "abandoned",
    "effect_done", "result_journaled", "receipt_journaled", "receipt_sent", "receipt_acked", "receipt_rejected",
    "reconciliation_required", "reconciled", "deferred", "cancel_requested", "call_done", "recovered", "failed",
)  # fmt: skip

__all__ = ["ToolRunner", "Registration", "RUNNER_EVENTS"]


class ToolRunner:
    """The executor SDK: register tools with ``@runner.tool``, reconcilers with ``@runner.reconciler``, then ``run()``."""

    def __init__(
        self,
        server_url: str,
        api_key: str,
        executor_id: str,
        binding_ids: List[str],
        journal_path: str,
        *,
        max_concurrency_per_tool: int = 4,
        poll_wait_ms: int = 20_000,
        poll_page_size: int = 50,
        retry_backoff_min_s: float = 0.1,
        retry_backoff_max_s: float = 10.0,
        request_timeout_s: float = 15.0,
        outbox_sweep_interval_s: float = 1.0,
        reconcile_interval_s: float = 5.0,
        stop_delivery_timeout_s: float = 5.0,
        refusal_grace_s: float = 60.0,
        journal_retention_s: float = 7 * 24 * 3600,
        connect_timeout_s: Optional[float] = None,
        batching: bool = True,
        operation_key: Optional[Callable[[Dict[str, Any]], str]] = None,
        agent_ids: Optional[Iterable[str]] = None,
        logger: Optional[logging.Logger] = None,
    ) -> None:
        if not isinstance(api_key, str) or api_key == "":
            raise RunnerError("invalid_options", "api_key is required")
        if not isinstance(executor_id, str) or not _EXECUTOR_ID.match(executor_id):
            raise RunnerError("invalid_options", "executor_id must be 1-128 letters, digits and _ . : - (starting with a letter or digit)")
        if not binding_ids or not all(isinstance(b, str) and b for b in binding_ids):
            raise RunnerError("invalid_options", "binding_ids must name at least one binding")
        if agent_ids is not None:
            if isinstance(agent_ids, str):
                raise RunnerError("invalid_options", "agent_ids must be a list of agent IDs")
            agent_ids = list(agent_ids)
            if not agent_ids or not all(isinstance(a, str) and a for a in agent_ids):
                raise RunnerError("invalid_options", "agent_ids must name at least one agent (leave it out to serve every agent)")
        if not 0 <= poll_wait_ms <= 30_000:
            raise RunnerError("invalid_options", "poll_wait_ms must be between 0 and 30000")
        if max_concurrency_per_tool < 1 or not 1 <= poll_page_size <= 200:
            raise RunnerError("invalid_options", "max_concurrency_per_tool must be ≥ 1 and poll_page_size 1-200")
        try:
            self._client = ServerClient(server_url, api_key, request_timeout_s)
            self._poll_client = ServerClient(server_url, api_key, request_timeout_s)
        except ValueError as error:
            raise RunnerError("invalid_options", str(error)) from error
        self.executor_id = executor_id
        self.binding_ids = list(binding_ids)
        # The agents this executor works for; None: every agent the key reaches.
        self.agent_ids: Optional[FrozenSet[str]] = None if agent_ids is None else frozenset(agent_ids)
        self._max_concurrency = max_concurrency_per_tool
        self._poll_wait_ms = poll_wait_ms
        self._poll_page_size = poll_page_size
        self._backoff_min_s = retry_backoff_min_s
        self._backoff_max_s = retry_backoff_max_s
        self._outbox_sweep_interval_s = outbox_sweep_interval_s
        self._reconcile_interval_s = reconcile_interval_s
        self._stop_delivery_timeout_s = stop_delivery_timeout_s
        self._journal_retention_s = journal_retention_s
        self._connect_timeout_s = connect_timeout_s
        self._batching = batching
        self._operation_key_of = operation_key
        self._log = logger or logging.getLogger("toolhost_runner")
        try:
            self._journal = Journal(journal_path)
        except (sqlite3.Error, ValueError, OSError) as error:
            raise RunnerError("invalid_options", f"cannot open the journal {journal_path}: {error}") from error
        self._registry = Registry()
        self._slots = ToolSlots()
        self._watch = TroubleWatch(retry_backoff_min_s, retry_backoff_max_s, refusal_grace_s)
        self._connection = ConnectionManager(self)
        self._delivery = ReceiptDelivery(self)
        self._cancellations = CancellationBook()
        self._listeners: Dict[str, List[Callable[[Dict[str, Any]], None]]] = {}
        self._counters: Dict[str, int] = {}
        self._counter_lock = threading.Lock()
        self._busy: Set[str] = set()
        self._busy_lock = threading.Lock()
        self._threads: Set[threading.Thread] = set()
        self._threads_lock = threading.Lock()
        self._unserved_tools: Set[str] = set()
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._stopping_since: Optional[float] = None
        self._failure: Optional[RunnerError] = None
        self._fenced = False
        self._claims_in_trouble = False
        self.state = "created"
        self._run_thread: Optional[threading.Thread] = None

    # --- registration -------------------------------------------------------------------------

    def tool(
        self,
        name: str,
        effect: str = "write",
        input_schema: Optional[Dict[str, Any]] = None,
        *,
        description: Optional[str] = None,
        result_type: Optional[str] = None,
        max_concurrency: Optional[int] = None,
        authorize: Optional[Callable[[ToolCall], bool]] = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering ``fn(call, ctx)`` as the handler of ``name`` (before ``run()``).

        ``authorize(call)`` is the product's permission check of a claimed call, before it is accepted:
        ``True`` serves it; anything else accepts it and reports ``failed`` (``not_authorized``) without
        running the handler; an exception leaves it unaccepted (the claim lapses and the call comes back)."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            if self.state != "created":
                raise RunnerError("invalid_registration", "register every tool before run()")
            limit = self._max_concurrency if max_concurrency is None else max_concurrency
            self._registry.add(Registration(name, fn, effect, result_type, limit, input_schema, description, authorize))
            self._slots.declare(name, limit)
            return fn

        return register

    def reconciler(self, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering ``fn(call, operation_key)`` as the resolver of ``name``'s unknown outcomes.

        It looks in the product's own records only and answers ``{"kind": "completed", "result": …}``,
        ``{"kind": "failed", "error": {"code": …, "message": …}}``, ``{"kind": "cancelled"}`` or None
        (cannot tell yet: asked again every ``reconcile_interval_s`` and at every start)."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._registry.add_resolver(name, fn)
            return fn

        return register

    def tool_definitions(self, binding_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """The registered tools as toolset definitions (``name``, ``binding_id``, ``effect``, ``input_schema``)."""
        definitions = []
        for r in self._registry.all():
            definition: Dict[str, Any] = {"name": r.name, "binding_id": binding_id or self.binding_ids[0], "effect": r.effect}
            if r.description is not None:
                definition["description"] = r.description
            definition["input_schema"] = r.input_schema if r.input_schema is not None else {"type": "object"}
            definitions.append(definition)
        return definitions

    def on(self, event: str, listener: Callable[[Dict[str, Any]], None]) -> None:
        """Calls ``listener(payload)`` synchronously at every ``event`` (one of RUNNER_EVENTS)."""
        if event not in RUNNER_EVENTS:
            raise RunnerError("invalid_registration", f"unknown event {event!r}")
        self._listeners.setdefault(event, []).append(listener)

    # --- lifecycle ----------------------------------------------------------------------------

    def run(self) -> None:
        """Connects, recovers the journal and serves calls until ``stop()``, SIGTERM or SIGINT; then drains.

        Raises the RunnerError that failed the runner (``connect_refused``, ``access_refused``,
        ``fenced``, ``internal_failure``, ``connect_timeout``); returns normally after a plain stop."""
        if self.state != "created":
            raise RunnerError("invalid_lifecycle", f"run() on a runner that is {self.state}")
        self.state = "starting"
        self._run_thread = threading.current_thread()
        restore = self._install_signal_handlers()
        try:
            self._journal.prune(int(self._journal_retention_s * 1000))
            deadline = None if self._connect_timeout_s is None else time.monotonic() + self._connect_timeout_s
            if self._connection.connect(deadline=deadline) is not None and not self._stopping.is_set():
                self.state = "started"
                self._supervised("recovery", lambda: recover_journal(self))
                for name, loop in (("heartbeat", heartbeat_loop), ("pending", pending_loop), ("maintenance", maintenance_loop)):
                    self._spawn(name, lambda loop=loop: loop(self))
                while not self._stopping.wait(0.25):
                    pass
        except RunnerError as error:
            self._fail(error)
        except BaseException as error:  # noqa: BLE001 - supervised: a bug ends run() as a RunnerError
            self._fail(RunnerError("internal_failure", f"{type(error).__name__}: {error}", error))
        finally:
            self._drain()
            restore()
        if self._failure is not None:
            raise self._failure

    def stop(self) -> None:
        """Stops polling, waits for in-flight handlers and their receipts (deliveries for at most
        ``stop_delivery_timeout_s``), detaches and closes the journal. From another thread it returns
        once that is over; a runner that never ran just closes its journal."""
        if self.state == "created":
            self.state = "stopped"
            self._journal.close()
            return
        self._request_stop()
        if threading.current_thread() is not self._run_thread:
            self._stopped.wait()

    def _request_stop(self) -> None:
        if self._stopping_since is None:
            self._stopping_since = time.monotonic()
        self._stopping.set()
        self._poll_client.abort()

    def _install_signal_handlers(self) -> Callable[[], None]:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None
        previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
        for s in previous:
            signal.signal(s, lambda *_: self._request_stop())

        def restore() -> None:
            for s, handler in previous.items():
                signal.signal(s, handler)

        return restore

    def _drain(self) -> None:
        self._request_stop()
        if self.state != "failed":
            self.state = "stopping"
        while True:
            with self._threads_lock:
                alive = [t for t in self._threads if t.is_alive()]
            if not alive:
                break
            for thread in alive:
                thread.join()
        connection = self._connection.current
        if connection is not None and not self._fenced:
            self._client.disconnect(self.executor_id, connection.connection_id)
        self._journal.close()
        if self.state != "failed":
            self.state = "stopped"
        self._stopped.set()

    def _fail(self, error: RunnerError) -> None:
        if self._failure is not None:
            return
        self._failure = error
        self.state = "failed"
        self._log.error("the runner failed: %s", error)
        try:
            self._emit("failed", {"code": error.code, "message": error.message, "error": error})
        finally:
            self._request_stop()

    def _fail_refused(self, what: str) -> None:
        self._fail(RunnerError("access_refused", f"the server refused this runner's {what} for longer than refusal_grace_s"))

    @property
    def failure(self) -> Optional[RunnerError]:
        """The RunnerError that failed the runner, or None."""
        return self._failure

    # --- threads ------------------------------------------------------------------------------

    def _supervised(self, name: str, work: Callable[[], Any]) -> None:
        try:
            work()
        except RunnerError as error:
            self._fail(error)
        except BaseException as error:  # noqa: BLE001 - a bug or a product callback: the runner fails, cleanly
            self._log.exception("%s raised", name)
            self._fail(RunnerError("internal_failure", f"{name}: {type(error).__name__}: {error}", error))

    def _spawn(self, name: str, work: Callable[[], Any]) -> threading.Thread:
        thread = threading.Thread(target=lambda: self._supervised(name, work), name=f"toolhost-{name}", daemon=True)
        with self._threads_lock:
            self._threads = {t for t in self._threads if t.is_alive()}
            self._threads.add(thread)
        thread.start()
        return thread

    def _spawn_owned(self, call_id: str, name: str, work: Callable[[], Any]) -> bool:
        """Runs ``work`` for ``call_id`` unless another thread of this process works on that call."""
        with self._busy_lock:
            if call_id in self._busy:
                return False
            self._busy.add(call_id)

        def owned() -> None:
            try:
                work()
            finally:
                with self._busy_lock:
                    self._busy.discard(call_id)

        self._spawn(name, owned)
        return True

    def _is_busy(self, call_id: str) -> bool:
        with self._busy_lock:
            return call_id in self._busy

    # --- events and counters ------------------------------------------------------------------

    def _emit(self, event: str, payload: Dict[str, Any]) -> None:
        for listener in self._listeners.get(event, ()):
            listener(payload)

    def _stats_add(self, name: str, n: int = 1) -> None:
        with self._counter_lock:
            self._counters[name] = self._counters.get(name, 0) + n

    def _stats_get(self, name: str) -> int:
        with self._counter_lock:
            return self._counters.get(name, 0)

    def _unserved(self, tool: str) -> None:
        self._stats_add("candidates_unserved")
        if tool not in self._unserved_tools:
            self._unserved_tools.add(tool)
            self._log.warning("candidates of tool %s are not claimed: no handler is registered here", tool)

    def _operation_key(self, call: Dict[str, Any]) -> str:
        if self._operation_key_of is not None:
            return str(self._operation_key_of(call))
        return f"{call['run_id']}:{call['call_id']}"

    def stats(self) -> Dict[str, Any]:
        """``{"counters", "in_flight", "journal", "connection"}``: monotonic counters, handlers per tool, calls
        per journal state (with ``outbox_pending``) and the current connection."""
        with self._counter_lock:
            counters = dict(self._counters)
        connection = self._connection.current
        return {
            "counters": counters,
            "in_flight": self._slots.in_flight(),
            "journal": self._journal.counts() if self.state not in ("stopped",) else {},
            "connection": None if connection is None else {"connection_id": connection.connection_id, "epoch": connection.epoch},
        }

    # --- deferred calls -----------------------------------------------------------------------

    def open_deferred(self) -> List[DeferredHandle]:
        """Handles still open in the journal (resume their jobs after a restart)."""
        return [
            DeferredHandle(e.handle_id or "", e.call_id, e.run_id, e.tool_name, e.operation_key)
            for e in self._journal.entries_in(["deferred"])
        ]

    def complete(self, handle_id: str, result: Any) -> None:
        """Finishes a deferred call ``completed`` with ``result`` (journaled, then delivered)."""
        try:
            compact_text(result).encode("utf-8")
        except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as error:
            raise RunnerError("invalid_json", f"the result is not JSON: {error}") from error
        self._finish(handle_id, {"kind": "completed", "result": result})

    def fail(self, handle_id: str, error: BaseException) -> None:
        """Finishes a deferred call ``failed`` (BusinessError) or ``cancelled`` (CancelledError)."""
        if isinstance(error, CancelledError):
            draft = {"kind": "cancelled", "error": error_object("cancelled", error.message, error.details)}
        elif isinstance(error, BusinessError):
            draft = {"kind": "failed", "error": error_object(str(error.code), str(error.message), error.details)}
        else:
            raise RunnerError("invalid_json", "fail() takes a BusinessError or a CancelledError")
        self._finish(handle_id, draft)

    def progress(self, handle_id: str, data: Dict[str, Any]) -> None:
        """Journals and delivers a ``progress`` receipt of a deferred call."""
        entry = self._entry_of_handle(handle_id)
        if not isinstance(data, dict):
            raise RunnerError("invalid_json", "progress data must be a JSON object (a dict)")
        try:
            compact_text(data).encode("utf-8")
        except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as error:
            raise RunnerError("invalid_json", f"progress data is not JSON: {error}") from error
        if journal_receipt(self, entry, {"kind": "progress", "progress": data}, ["deferred"]) is None:
            raise RunnerError("handle_finished", f"deferred call {entry.call_id} is finished")
        self._deliver_now(entry.call_id)

    def _entry_of_handle(self, handle_id: str) -> Any:
        entry = self._journal.by_handle(handle_id)
        if entry is None:
            raise RunnerError("unknown_handle", f"no deferred call has handle {handle_id}")
        return entry

    def _finish(self, handle_id: str, draft: Dict[str, Any]) -> None:
        entry = self._entry_of_handle(handle_id)
        # One transaction moves deferred -> finishing: of two finishers only one wins.
        receipt_id = journal_receipt(self, entry, draft, ["deferred"], "finishing", draft["kind"])
        if receipt_id is None:
            raise RunnerError("handle_finished", f"deferred call {entry.call_id} was finished already")
        self._emit("result_journaled", {"call_id": entry.call_id, "receipt_id": receipt_id, "kind": draft["kind"]})
        self._deliver_now(entry.call_id)

    def _deliver_now(self, call_id: str) -> None:
        if self.state == "started":
            self._spawn_owned(call_id, f"delivering {call_id}", lambda: self._delivery.deliver_call(call_id))
        else:
            # A process that only finishes calls: try for a while, else the started runner's sweep delivers it.
            self._delivery.deliver_call(call_id, give_up_after_s=self._stop_delivery_timeout_s)
