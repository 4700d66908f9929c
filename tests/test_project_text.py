"""The project's files describe the code as it is: none speaks of how its work was organised
(numbered work sessions or tracker issues); that history lives in the commit messages."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.conftest import REPO_ROOT

#: "stop 12", "Stop 3", "issue 21", "issue #5": the words of a work diary, not of a reference
DIARY = re.compile(r"\b(?:stops?|issues?) #?\d+", re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".md", ".html", ".css", ".js", ".mjs", ".toml", ".txt", ".yml", ".json", ""}


def tracked_text_files():
    out = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    for name in out.stdout.splitlines():
        path = REPO_ROOT / name
        # (this file names the words it looks for)
        if (path.suffix in TEXT_SUFFIXES and path.is_file() and not path.is_symlink()
                and path.resolve() != Path(__file__).resolve()):
            yield path


def test_no_file_reads_as_a_work_diary():
    found = []
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if DIARY.search(line):
                found.append(f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()[:120]}")
    assert not found, "\n".join(found)


def test_the_pattern_finds_a_diary_line():
    assert DIARY.search("measured in stop 37 (issue 21)")
    assert not DIARY.search("the clock stops at 3 s; the relay issues a token")
