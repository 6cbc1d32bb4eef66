"""The checked reader: every answer of the server becomes an ``HttpOutcome`` value and never an
exception. A 2xx whose body is not the route's shape (a proxy's HTML page, a truncated body, a missing
or mistyped member) is ``malformed`` and handled like a server error; members a shape does not name are
ignored, so a newer server stays readable."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union


@dataclass(frozen=True)
class Optional_:
    """A member that may be absent."""

    spec: Any


@dataclass(frozen=True)
class Nullable:
    """A member whose value may be null."""

    spec: Any


@dataclass(frozen=True)
class OneOf:
    """A string from a fixed set."""

    values: Tuple[str, ...]


# A shape: "string", "integer", "boolean", "any", a dict of member shapes, a one-element list (array of
# that shape), Optional_, Nullable or OneOf.
Shape = Union[str, Dict[str, Any], List[Any], Optional_, Nullable, OneOf]


def shape_problem(value: Any, shape: Shape, pointer: str = "") -> Optional[str]:
    """Why ``value`` is not of ``shape`` (with the JSON pointer of the first problem), or None."""
    if isinstance(shape, Nullable):
        return None if value is None else shape_problem(value, shape.spec, pointer)
    if isinstance(shape, OneOf):
        return None if isinstance(value, str) and value in shape.values else f"{pointer or '/'}: not one of {shape.values}"
    if isinstance(shape, list):
        if not isinstance(value, list):
            return f"{pointer or '/'}: not an array"
        for index, item in enumerate(value):
            problem = shape_problem(item, shape[0], f"{pointer}/{index}")
            if problem is not None:
                return problem
        return None
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return f"{pointer or '/'}: not an object"
        for name, member in shape.items():
            if isinstance(member, Optional_):
                if name not in value:
                    continue
                member = member.spec
            elif name not in value:
                return f"{pointer}/{name}: missing"
            problem = shape_problem(value[name], member, f"{pointer}/{name}")
            if problem is not None:
                return problem
        return None
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "any": lambda v: True,
    }
    return None if checks[shape](value) else f"{pointer or '/'}: not a {shape}"


@dataclass(frozen=True)
class HttpOutcome:
    """One request's outcome: ``answer`` (2xx, read), ``refused`` (an error status), ``unreachable``
    (no answer: refused connection, timeout, reset) or ``malformed`` (an answer the runner cannot read)."""

    type: str
    status: int = 0
    body: Any = None
    text: str = ""
    code: str = ""
    message: str = ""
    details: Dict[str, Any] = field(default_factory=dict)


def read_answer(status: int, raw: bytes, shape: Shape) -> HttpOutcome:
    """The outcome of an answer with ``status`` and body ``raw``, read against ``shape``."""
    try:
        text = raw.decode("utf-8")
        body = json.loads(text) if text != "" else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        body, text = None, raw.decode("utf-8", "replace")
        if 200 <= status < 300:
            return HttpOutcome("malformed", status=status, text=text, message="the answer is not JSON")
    if 200 <= status < 300:
        problem = shape_problem(body, shape)
        if problem is not None:
            return HttpOutcome("malformed", status=status, text=text, message=f"unexpected answer: {problem}")
        return HttpOutcome("answer", status=status, body=body, text=text)
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        details = error.get("details")
        return HttpOutcome(
            "refused",
            status=status,
            text=text,
            code=error["code"],
            message=str(error.get("message", "")),
            details=details if isinstance(details, dict) else {},
        )
    # An error page without the server's error body (a proxy's): known by its status only.
    return HttpOutcome("refused", status=status, text=text, code=f"http_{status}", message=text[:200])


def is_transient_status(status: int) -> bool:
    """Statuses worth retrying as they are: server errors, overload, a request timeout."""
    return status >= 500 or status in (408, 429)
