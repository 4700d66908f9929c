"""`python -m trifront replay FILE` (RECORD.md): exit codes, one-line errors, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT
from trifront.game import Game


def run_replay(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "trifront", "replay", str(path)],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)


def write(tmp_path, data) -> str:
    path = tmp_path / "r.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_replay_prints_the_summary_of_a_played_game(tmp_path):
    g = Game.new(seed=5)
    for _ in range(12):
        g.apply(g.legal_actions()[0])
    run = run_replay(write(tmp_path, g.record()))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == g.summary()


def test_replay_illegal_action_exits_1_with_index_and_rule(tmp_path):
    record = Game.new(seed=3).record()
    record["actions"] = [{"type": "pass"}, {"type": "discard", "card": 99}]
    run = run_replay(write(tmp_path, record))
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "action 1 " in lines[0] and "R3.3" in lines[0]
    assert "(the 2nd)" in lines[0]            # as the page counts it ("action 2")
    assert run.stdout == ""


def test_a_summary_that_cannot_be_written_exits_2_in_one_line(tmp_path):
    g = Game.new(seed=5)
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "trifront", "replay",
                              write(tmp_path, g.record())], stdout=full, stderr=subprocess.PIPE,
                             text=True, cwd=REPO_ROOT, timeout=60)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "cannot write" in run.stderr


MALFORMED = {
    "not json": "{nope",
    "not an object": "[1, 2]",
    "wrong format": {"format": "trifront-record/2"},
    "missing actions": {k: v for k, v in Game.new().record().items() if k != "actions"},
    "unknown mode": {**Game.new().record(), "mode": "chaos"},
    "normal mode with draft effects": {**Game.new().record(), "effects": [
        {"A": "gunners", "B": "recon", "C": "ambush", "D": "strategic"},
        {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}]},
    "effect of another group": {**Game.new().record(), "mode": "draft", "effects": [
        {"A": "recon", "B": "recon", "C": "ambush", "D": "strategic"},
        {"A": "supply", "B": "recon", "C": "ambush", "D": "strategic"}]},
    "seed is a string": {**Game.new().record(), "seed": "42"},
    "first is 2": {**Game.new().record(), "first": 2},
    "deck misses a card": {**Game.new().record(), "decks": [list(range(25)), list(range(26))]},
    "action of unknown type": {**Game.new().record(), "actions": [{"type": "dance"}]},
    "lane out of range": {**Game.new().record(),
                          "actions": [{"type": "play", "card": 0, "lane": 3, "face": "up"}]},
    "face sideways": {**Game.new().record(),
                      "actions": [{"type": "play", "card": 0, "lane": 0, "face": "side"}]},
    "card is a bool": {**Game.new().record(), "actions": [{"type": "discard", "card": True}]},
    "unknown field": {**Game.new().record(), "extra": 1},
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_replay_malformed_record_exits_2_with_one_line(tmp_path, name):
    run = run_replay(write(tmp_path, MALFORMED[name]))
    assert run.returncode == 2, (name, run.stdout, run.stderr)
    assert len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr


def test_replay_missing_file_exits_2(tmp_path):
    run = run_replay(tmp_path / "absent.json")
    assert run.returncode == 2 and "Traceback" not in run.stderr


def test_replay_usage_error_exits_2():
    run = subprocess.run([sys.executable, "-m", "trifront"], capture_output=True, text=True,
                         cwd=REPO_ROOT, timeout=60)
    assert run.returncode == 2 and "usage" in run.stderr


@pytest.mark.parametrize("args", [["--help"], ["replay", "--help"], ["-h"]])
def test_help_explains_and_exits_0(args):
    run = subprocess.run([sys.executable, "-m", "trifront", *args], capture_output=True,
                         text=True, cwd=REPO_ROOT, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("usage: python -m trifront")
    assert "replay" in run.stdout and run.stderr == ""


@pytest.mark.parametrize("args", [[], ["replay"], ["dance", "x"], ["replay", "a", "b"]])
def test_a_wrong_call_shows_usage_and_exits_2(args):
    run = subprocess.run([sys.executable, "-m", "trifront", *args], capture_output=True,
                         text=True, cwd=REPO_ROOT, timeout=60)
    assert run.returncode == 2 and "usage: python -m trifront" in run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_a_closed_stdout_exits_2_in_one_line_with_no_traceback(tmp_path):
    """`replay VALID.json >&-`: Python starts with no sys.stdout. Not an illegal action (1)."""
    path = write(tmp_path, Game.new(seed=5).record())
    run = subprocess.run(f"'{sys.executable}' -m trifront replay '{path}' >&-", shell=True,
                         capture_output=False, stderr=subprocess.PIPE, text=True,
                         cwd=REPO_ROOT, timeout=60)
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write the summary" in lines[0], run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("source", ["big", "/dev/zero"])
def test_a_huge_file_is_refused_before_it_is_read_whole(tmp_path, source):
    """A file far past any record's size (or an endless one) under a memory limit: exit 2,
    one line, no MemoryError traceback."""
    if source == "big":
        path = tmp_path / "big.json"
        with open(path, "wb") as f:
            f.truncate(1_200_000_000)               # sparse: 1.2 GB that takes no disk
    else:
        path = source
    limit = 200 * 1024 * 1024
    run = subprocess.run(
        [sys.executable, "-c",
         "import resource, runpy, sys;"
         f"resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}));"
         "sys.argv = ['trifront', 'replay', sys.argv[1]];"
         "runpy.run_module('trifront', run_name='__main__')", str(path)],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert run.returncode == 2, run.stderr[-500:]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "too big" in lines[0], run.stderr[-500:]
    assert "Traceback" not in run.stderr
