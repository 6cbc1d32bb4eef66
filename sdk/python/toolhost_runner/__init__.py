"""toolhost-runner: the Python executor SDK of toolhost (standard library only). See docs/runner-python.md."""

from __future__ import annotations

from .errors import RUNNER_ERROR_CODES, BusinessError, CancelledError, RunnerError
from .measure import arguments_digest, canonical_text, measure
from .runner import RUNNER_EVENTS, ToolRunner
from .tool_call import DeferredHandle, ToolCall, ToolContext

__version__ = "0.1.0"

__all__ = [
    "RUNNER_ERROR_CODES",
    "RUNNER_EVENTS",
    "BusinessError",
    "CancelledError",
    "DeferredHandle",
    "RunnerError",
    "ToolCall",
    "ToolContext",
    "ToolRunner",
    "arguments_digest",
    "canonical_text",
    "measure",
]
