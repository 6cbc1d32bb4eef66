"""Trouble with the server, watched per channel (connect, heartbeat, pending, report, claim, receipt):
failed requests in a row of the same kind and code form a streak, which backs off exponentially with
jitter, is logged once when it starts (then at most once a minute) and, when it is a refusal retrying
cannot cure, fails the runner once it lasted ``refusal_grace_s``. Transient trouble (no answer, 5xx,
an unreadable answer) is retried for as long as it lasts. Monotonic clock."""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Dict, Optional

from .decisions import backoff_delay_s

# A streak is logged again at most this often while it lasts.
TROUBLE_REMINDER_S = 60.0

LOG = logging.getLogger("toolhost_runner")


@dataclass
class _Streak:
    kind: str
    code: str
    since: float
    failures: int
    warned_at: float


@dataclass(frozen=True)
class TroubleDecision:
    """Wait ``delay_s`` before the channel's next attempt; ``fatal``: a refusal outlasted its grace."""

    delay_s: float
    fatal: bool


class TroubleWatch:
    """The streaks of every channel."""

    def __init__(self, backoff_min_s: float, backoff_max_s: float, refusal_grace_s: float) -> None:
        self._min = backoff_min_s
        self._max = backoff_max_s
        self._grace = refusal_grace_s
        self._streaks: Dict[str, _Streak] = {}
        self._lock = threading.Lock()

    def report(self, channel: str, kind: str, code: str, detail: str = "") -> TroubleDecision:
        """Records one failed request (``kind`` ``transient`` or ``refused``); answers what to do."""
        now = time.monotonic()
        with self._lock:
            previous: Optional[_Streak] = self._streaks.get(channel)
            if previous is not None and previous.kind == kind and previous.code == code:
                previous.failures += 1
                streak = previous
                if now - streak.warned_at >= TROUBLE_REMINDER_S:
                    streak.warned_at = now
                    LOG.warning("%s: still failing (%s %s, %d attempts): %s", channel, kind, code, streak.failures, detail)
            else:
                streak = _Streak(kind, code, now, 1, now)
                self._streaks[channel] = streak
                LOG.warning("%s: %s trouble %s: %s", channel, kind, code, detail)
            delay = backoff_delay_s(streak.failures - 1, self._min, self._max, random.random())
            return TroubleDecision(delay, kind == "refused" and now - streak.since >= self._grace)

    def clear(self, channel: str) -> None:
        """The channel works again: ends its streak (logged once)."""
        with self._lock:
            streak = self._streaks.pop(channel, None)
        if streak is not None:
            LOG.info("%s: works again after %d failed attempts", channel, streak.failures)
