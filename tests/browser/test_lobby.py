"""Play someone, in real Chromium inside a loopback-only network namespace (PLATFORM.md): a
local Nostr relay (PyPI nostr-relay) and no server of ours, by tests/browser/lobby_match.py.

Two pages make a player each; the second lists the first's seek (its name as text); both
press Quick match and reach the board of the same room word within 5 s of the second press;
a page reloaded in the lobby is the same player (name and key fingerprint). Six pages that
press Quick match together are paired three rooms of two, every page on its board. Screenshots of
the lobby at 375 x 667 and 1280 x 800, English and Japanese: screenshots/lobby-*.png.
Needs root (for the namespace), as `scripts/test` and CI have.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HELPER = Path(__file__).with_name("lobby_match.py")


def run_lobby(tmp_path: Path, *scenarios: str, timeout: float = 900) -> dict:
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        why = "needs root, unshare and ip for a loopback-only network namespace"
        if os.environ.get("CI") == "true":      # as test_online.py: never silently gone in CI
            pytest.fail(why)
        pytest.skip(why)
    out = tmp_path / "result.json"
    script = (f'ip link set lo up && exec "{sys.executable}" "{HELPER}" --out "{out}" '
              + " ".join(scenarios))
    proc = subprocess.run(["unshare", "-n", "sh", "-c", script], capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0 and out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out.read_text())


def test_two_strangers_quick_match_into_the_same_game(tmp_path):
    result = run_lobby(tmp_path, "two")["two"]
    assert "exception" not in result, result.get("exception")
    assert result["b_lists"].split("\n")[:2] == ["Aki", "1500"], result["b_lists"]
    assert result["screens"] == ["screen-board", "screen-board"], result
    room_a, room_b = result["rooms"]
    assert room_a == room_b and len(room_a) == 32, result["rooms"]
    assert result["board_s"] is not None and result["board_s"] <= 5.0, result
    assert result["reload"]["before"] == result["reload"]["after"], result["reload"]
    assert result["reload"]["after"][0] == "Reload Me"
    assert not result["errors"], result["errors"]


def test_six_strangers_at_once_make_three_games(tmp_path):
    result = run_lobby(tmp_path, "six")["six"]
    assert "exception" not in result, result.get("exception")
    assert result["screens"] == ["screen-board"] * 6, result
    rooms = result["rooms"]
    assert all(len(r) == 32 for r in rooms) and all(rooms.count(r) == 2 for r in rooms), rooms
    assert result["board_s"] is not None, result       # within 90 s of the last press
    assert not result["errors"], result["errors"]
