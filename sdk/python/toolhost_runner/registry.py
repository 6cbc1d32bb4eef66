"""The tools a runner serves: each name's handler, effect, result type, concurrency and optional input
schema, and the reconcilers (``@runner.reconciler``) that settle unknown outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from .errors import RunnerError

RESULT_TYPES = ("json", "multimodal", "submission", "opaque")


@dataclass(frozen=True)
class Registration:
    """One registered tool."""

    name: str
    handler: Callable[..., Any]
    effect: str
    result_type: Optional[str]
    max_concurrency: int
    input_schema: Optional[Dict[str, Any]]
    description: Optional[str]
    # The product's permission check of a claimed call (``ToolCall`` → bool), before it is accepted.
    authorize: Optional[Callable[..., Any]] = None


class Registry:
    """Handlers and reconcilers by tool name."""

    def __init__(self) -> None:
        self._tools: Dict[str, Registration] = {}
        self._resolvers: Dict[str, Callable[..., Any]] = {}

    def add(self, registration: Registration) -> None:
        """Registers a tool (once per name)."""
        if registration.effect not in ("read", "write"):
            raise RunnerError("invalid_registration", f"effect of {registration.name} must be 'read' or 'write'")
        if registration.result_type is not None and registration.result_type not in RESULT_TYPES:
            raise RunnerError("invalid_registration", f"result_type of {registration.name} must be one of {RESULT_TYPES}")
        if registration.max_concurrency < 1:
            raise RunnerError("invalid_registration", f"max_concurrency of {registration.name} must be at least 1")
        if registration.authorize is not None and not callable(registration.authorize):
            raise RunnerError("invalid_registration", f"authorize of {registration.name} must be a function")
        if not registration.name or registration.name in self._tools:
            raise RunnerError("invalid_registration", f"tool {registration.name!r} is empty or registered twice")
        self._tools[registration.name] = registration

    def add_resolver(self, name: str, resolver: Callable[..., Any]) -> None:
        """Registers the reconciler of ``name``."""
        if name in self._resolvers:
            raise RunnerError("invalid_registration", f"a reconciler of {name} is registered already")
        self._resolvers[name] = resolver

    def get(self, name: str) -> Optional[Registration]:
        """The registration of ``name``, or None."""
        return self._tools.get(name)

    def resolver(self, name: str) -> Optional[Callable[..., Any]]:
        """The reconciler of ``name``, or None."""
        return self._resolvers.get(name)

    def tool_names(self) -> List[str]:
        """Every registered name (declared at connect)."""
        return sorted(self._tools)

    def all(self) -> List[Registration]:
        """Every registration."""
        return [self._tools[name] for name in sorted(self._tools)]
