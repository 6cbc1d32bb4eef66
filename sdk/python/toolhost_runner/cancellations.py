"""Business cancel requests the server carries in heartbeat and pending answers: remembered per call
until the call is done, and delivered to a running handler through its ``ctx.cancelled`` event."""

from __future__ import annotations

import threading
from typing import Dict, Set


class CancellationBook:
    """Which calls were asked to stop, and the events of the handlers running now."""

    def __init__(self) -> None:
        self._requested: Set[str] = set()
        self._events: Dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def request(self, call_id: str) -> bool:
        """Records a request; True when it is new (the handler's event, if any, is set)."""
        with self._lock:
            if call_id in self._requested:
                return False
            self._requested.add(call_id)
            event = self._events.get(call_id)
        if event is not None:
            event.set()
        return True

    def event_for(self, call_id: str) -> threading.Event:
        """The event of a handler about to run (already set when the cancel came first)."""
        event = threading.Event()
        with self._lock:
            self._events[call_id] = event
            if call_id in self._requested:
                event.set()
        return event

    def detach(self, call_id: str) -> None:
        """The handler returned: its event is dropped (the request is kept until the call is done)."""
        with self._lock:
            self._events.pop(call_id, None)

    def discard(self, call_id: str) -> None:
        """The call is done: forgets it."""
        with self._lock:
            self._requested.discard(call_id)
            self._events.pop(call_id, None)

    def __contains__(self, call_id: object) -> bool:
        with self._lock:
            return call_id in self._requested
