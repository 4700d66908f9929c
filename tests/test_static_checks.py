"""The static checks: ruff (ruff.toml: bugs, not style) and mypy (mypy.ini) over the whole
tree, as part of the suite, so a CI run fails on an unused name, a task nobody holds, a
closure reading a loop variable late or a type error in a checked module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    exe = BIN / tool
    if not exe.exists():
        pytest.fail(f"{tool} is not installed in {BIN} (requirements-dev.txt; scripts/setup)")
    return subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_ruff_finds_nothing():
    done = run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_checked_modules():
    done = run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_checks_can_fail(tmp_path):
    """Each tool, given a file with the fault it exists to catch, reports it (a check that
    cannot fail proves nothing)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f(n: int) -> str:\n    return n\n")
    ruff = run("ruff", "check", "--no-cache", "--config", str(ROOT / "ruff.toml"), str(bad))
    assert ruff.returncode == 1 and "F401" in ruff.stdout, ruff.stdout
    mypy = run("mypy", "--no-incremental", "--config-file", str(ROOT / "mypy.ini"), str(bad))
    assert mypy.returncode == 1 and "return-value" in mypy.stdout, mypy.stdout
