"""The byte measure of a result and the arguments digest, exactly as the platform defines them: compact
UTF-8 JSON with sorted keys (the seed's Python snippet), so a product can check a result against a
tool's ``max_result_context_bytes`` locally and the runner can verify ``arguments_digest``."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_text(value: Any) -> str:
    """The sorted compact JSON text of ``value`` (raises what ``json.dumps`` raises for non-JSON values)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def compact_text(value: Any) -> str:
    """The compact JSON text of ``value`` in its own key order (how receipts are written)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def measure(result: Any) -> int:
    """Bytes of ``result`` as the server measures it against ``max_result_context_bytes``."""
    return len(canonical_text(result).encode("utf-8"))


def arguments_digest(arguments: Any) -> str:
    """``sha256:`` + hex SHA-256 of the sorted canonical text, as the server computes ``arguments_digest``."""
    return "sha256:" + hashlib.sha256(canonical_text(arguments).encode("utf-8")).hexdigest()
