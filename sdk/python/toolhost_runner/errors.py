"""Errors of the runner: what a handler raises to report a business outcome, and RunnerError, the
runner's own failures and API misuse, each with a stable code (the same codes as @toolhost/runner)."""

from __future__ import annotations

from typing import Any, Dict, Optional


class BusinessError(Exception):
    """Raised by a handler (or passed to ``runner.fail``): the product confirms the business failed."""

    def __init__(self, code: str, message: str, details: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class CancelledError(Exception):
    """Raised by a handler (or passed to ``runner.fail``): the product confirms the task stopped."""

    def __init__(self, message: str = "cancelled", details: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


# Every code a RunnerError carries, with what it means.
RUNNER_ERROR_CODES: Dict[str, str] = {
    "invalid_options": "a ToolRunner option is missing or malformed",
    "invalid_registration": "a tool or resolver registration is malformed or registered twice",
    "invalid_lifecycle": "run() or stop() called in a state that does not allow it",
    "unknown_handle": "no deferred call has this handle in the journal",
    "handle_finished": "the deferred call was finished already (complete/fail won elsewhere)",
    "call_finished": "progress or defer() after the handler's call was finished",
    "invalid_json": "a value JSON cannot express (NaN, a cycle, an object that is not JSON)",
    "connect_refused": "the server refused the connection (key, scope or binding)",
    "connect_timeout": "the server did not answer the first connect within connect_timeout_s",
    "access_refused": "a refusal of the key or executor lasted refusal_grace_s",
    "fenced": "another process connected with this executor ID",
    "internal_failure": "something raised where nothing should (a bug, a product callback, a journal write)",
    "malformed_answer": "an answer the runner could not read (retried; never fatal by itself)",
}


class RunnerError(Exception):
    """A failure of the runner or a misuse of its API; ``code`` is one of RUNNER_ERROR_CODES."""

    def __init__(self, code: str, message: str, cause: Optional[BaseException] = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.__cause__ = cause
