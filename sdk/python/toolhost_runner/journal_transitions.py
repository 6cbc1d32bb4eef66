"""The journal's two state machines as tables: where a call's execution stands (``assignments``) and
where each receipt's delivery stands (``outbox``). Every state change goes through
``Journal.transition`` / the outbox settle, which refuse any step not listed here; triggers in the
file refuse them too, whichever process writes. Same tables as @toolhost/runner, so either runner
reads the other's journal."""

from __future__ import annotations

from typing import Dict, Tuple

# The call states and their allowed next states.
JOURNAL_TRANSITIONS: Dict[str, Tuple[str, ...]] = {
    # Operation key, assignment and `accepted` journaled: the handler has NOT run.
    "accepting": ("accepting", "running", "abandoned"),
    # `confirmed: true` journaled: the handler may have started.
    "running": ("deferred", "finishing", "reconciling", "done"),
    # Handed to long-running work; complete/fail finishes it.
    "deferred": ("finishing", "reconciling"),
    # Outcome unknown, waiting for the product's resolver.
    "reconciling": ("finishing", "done"),
    # Final receipt journaled, delivered until acknowledged.
    "finishing": ("done",),
    "done": (),
    # Never started; a later claim of the same call may journal it again.
    "abandoned": ("accepting",),
}

# The outbox states: a receipt is journaled `pending` and settles once, for good.
OUTBOX_TRANSITIONS: Dict[str, Tuple[str, ...]] = {
    "pending": ("delivered", "rejected", "obsolete"),
    "delivered": (),
    "rejected": (),
    "obsolete": (),
}

# States with nothing left to do.
CLOSED_STATES = frozenset(("done", "abandoned"))

# States a journal report covers after a restart.
OPEN_STATES = ("accepting", "running", "reconciling", "finishing")


class JournalTransitionError(Exception):
    """A journal write asked for a step its state machine does not have (a bug, never a runtime condition)."""

    def __init__(self, table: str, source: str, target: str) -> None:
        super().__init__(f"the journal refuses the step {source} -> {target} of {table}: not an edge")
        self.table = table


def is_journal_edge(source: str, target: str) -> bool:
    """True when a call may move from ``source`` to ``target``."""
    return target in JOURNAL_TRANSITIONS.get(source, ())


def is_outbox_edge(source: str, target: str) -> bool:
    """True when a receipt may move from ``source`` to ``target``."""
    return target in OUTBOX_TRANSITIONS.get(source, ())


def edge_literals(table: Dict[str, Tuple[str, ...]]) -> str:
    """``'from>to'`` literals of every edge, for a trigger's NOT IN list."""
    return ", ".join(f"'{a}>{b}'" for a, targets in table.items() for b in targets)
