"""The package builds offline: the in-tree backend's standard-library wheel writer (used when
setuptools cannot build wheels by itself) makes a wheel holding every module and its metadata, and
Python imports the runner from it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import unittest
import zipfile

from support import SDK, temp_dir

sys.path.insert(0, os.path.join(SDK, "build_backend"))

import toolhost_build  # noqa: E402


class PackagingTest(unittest.TestCase):
    def test_the_stdlib_wheel_holds_the_package_and_imports(self) -> None:
        directory = temp_dir()
        self.addCleanup(shutil.rmtree, directory, True)
        name = toolhost_build._write_wheel(directory)
        self.assertEqual(name, "toolhost_runner-0.1.0-py3-none-any.whl")
        wheel = os.path.join(directory, name)
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
            metadata = archive.read("toolhost_runner-0.1.0.dist-info/METADATA").decode()
        modules = {f"toolhost_runner/{f}" for f in os.listdir(os.path.join(SDK, "toolhost_runner")) if f.endswith(".py")}
        self.assertTrue(modules <= names, modules - names)
        self.assertIn("toolhost_runner/py.typed", names)
        self.assertIn("Name: toolhost-runner\n", metadata)
        self.assertIn("Requires-Python: >=3.9\n", metadata)
        self.assertEqual(toolhost_build.get_requires_for_build_wheel(), [])
        # A pure wheel is importable as a zip: the runner loads from it alone.
        done = subprocess.run(
            [sys.executable, "-c", "import toolhost_runner, sys; print(toolhost_runner.measure({'a': '中'}), toolhost_runner.__file__)"],
            env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": wheel},
            capture_output=True,
            cwd=directory,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr.decode())
        size, where = done.stdout.decode().split()
        self.assertEqual(size, "11")
        self.assertTrue(where.startswith(wheel), where)


if __name__ == "__main__":
    unittest.main()
