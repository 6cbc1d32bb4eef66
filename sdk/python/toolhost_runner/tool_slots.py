"""Concurrency slots per tool: a call takes its tool's slot before it is claimed, so no tool ever runs
more handlers at once than its limit, and batched claims never ask for more than every tool can take."""

from __future__ import annotations

import threading
from typing import Dict


class ToolSlots:
    """Free and used slots of every registered tool."""

    def __init__(self) -> None:
        self._limits: Dict[str, int] = {}
        self._used: Dict[str, int] = {}
        self._changed = threading.Condition()

    def declare(self, tool: str, limit: int) -> None:
        """Declares ``tool`` with ``limit`` slots."""
        with self._changed:
            self._limits[tool] = limit
            self._used.setdefault(tool, 0)

    def try_take(self, tool: str) -> bool:
        """Takes a slot of ``tool`` if one is free."""
        with self._changed:
            if tool not in self._limits or self._used[tool] >= self._limits[tool]:
                return False
            self._used[tool] += 1
            return True

    def take(self, tool: str, give_up: threading.Event) -> bool:
        """Waits for a slot of ``tool``; False once ``give_up`` is set."""
        with self._changed:
            while not give_up.is_set():
                if self._used.get(tool, 0) < self._limits.get(tool, 0):
                    self._used[tool] += 1
                    return True
                self._changed.wait(0.2)
            return False

    def release(self, tool: str) -> None:
        """Gives a slot of ``tool`` back."""
        with self._changed:
            self._used[tool] = max(0, self._used.get(tool, 0) - 1)
            self._changed.notify_all()

    def free_everywhere(self) -> int:
        """The free slots of the fullest tool: how many calls of any tool fit now."""
        with self._changed:
            if not self._limits:
                return 0
            return min(self._limits[t] - self._used[t] for t in self._limits)

    def in_flight(self) -> Dict[str, int]:
        """Used slots per tool."""
        with self._changed:
            return dict(self._used)
