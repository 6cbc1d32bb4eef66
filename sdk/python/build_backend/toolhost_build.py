"""The package's PEP 517 build backend: setuptools' own whenever it can build wheels (the ``wheel``
package installed, or setuptools 70.1 and later), else the same wheel written with the standard
library (``zipfile``), so ``pip install --no-build-isolation ./sdk/python`` works offline on a
machine whose Python has setuptools but no ``wheel`` (setuptools 65 asks for ``wheel`` even to write
metadata). The package is pure Python: the wheel holds ``toolhost_runner/`` and its metadata only."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import zipfile
from typing import Any, Dict, List, Optional

import setuptools
import setuptools.build_meta as _setuptools

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "toolhost_runner"


def _setuptools_builds_wheels() -> bool:
    try:
        import wheel  # noqa: F401
    except ImportError:
        major, minor = (int(p) for p in setuptools.__version__.split(".")[:2])
        return (major, minor) >= (70, 1)
    return True


def _project() -> Dict[str, str]:
    """name, version, description and requires-python from pyproject.toml (no tomllib before 3.11)."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read().split("[project]", 1)[1].split("\n[", 1)[0]
    fields = {}
    for key in ("name", "version", "description", "requires-python"):
        match = re.search(rf'^{key}\s*=\s*"([^"]*)"', text, re.MULTILINE)
        if match is None:
            raise ValueError(f"pyproject.toml: [project] {key} is missing")
        fields[key] = match.group(1)
    return fields


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    """Nothing beyond setuptools (the fallback writer needs only the standard library)."""
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    """Nothing beyond setuptools."""
    return []


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    """setuptools' sdist."""
    return _setuptools.build_sdist(sdist_directory, config_settings)


def build_wheel(
    wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None
) -> str:
    """setuptools' wheel when it can build one, else the standard-library writer's."""
    if _setuptools_builds_wheels():
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    return _write_wheel(wheel_directory)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory: str) -> str:
    project = _project()
    dist = project["name"].replace("-", "_")
    version = project["version"]
    info = f"{dist}-{version}.dist-info"
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    files: List[Any] = []
    for folder, _, names in sorted(os.walk(os.path.join(ROOT, PACKAGE))):
        for name in sorted(names):
            if name.endswith((".py", ".typed")):
                path = os.path.join(folder, name)
                with open(path, "rb") as f:
                    files.append((os.path.relpath(path, ROOT).replace(os.sep, "/"), f.read()))
    metadata = (
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\nSummary: {project['description']}\n"
        f"License: Apache-2.0\nRequires-Python: {project['requires-python']}\n"
        f"Description-Content-Type: text/markdown\n\n{readme}"
    )
    files.append((f"{info}/METADATA", metadata.encode("utf-8")))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: toolhost_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{info}/top_level.txt", f"{PACKAGE}\n".encode()))
    record = "\n".join([_record_line(n, d) for n, d in files] + [f"{info}/RECORD,,", ""])
    files.append((f"{info}/RECORD", record.encode("utf-8")))
    wheel_name = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return wheel_name
