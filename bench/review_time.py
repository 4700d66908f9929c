"""Benchmark: how long a whole game's review takes in the browser (target: a 40-action game
in <= 20 s, with progress), and whether its labels are the same every time.

Serves the repository (scripts/serve.py), opens the page in headless Chromium with the
browser tests' flags, plays whole Normal games against the Easy CPU by clicking
(bench/think_time_browser.py's play_game), then clicks Review on the game-over screen and
times it to "done" (``#review-progress[data-status="done"]``). The comparison runs in the
CPU's worker (trifront/ui/cpu_worker.py ``review``), trifront/ai/review.py's REVIEW_WORLDS
worlds a move. The same game is then opened from its share link in two fresh pages and
reviewed again: the labels of the three runs (the table's ``data-label``) must be the same.
Prints per game: the game's actions, the moves reviewed, the wall time from the click to the
last answer, the worker's own time, the time scaled to a 40-action game, and whether the
three runs agreed.

``--compare DIR``: also time the review of each game in the checkout at DIR (say, a
worktree of the previous commit), served the same way, in the same run (same machine load).

    .venv/bin/python bench/review_time.py               # 3 games, seeds 1..3
    .venv/bin/python bench/review_time.py --games 5 --seed 11 --compare /tmp/prev
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))
import serve  # noqa: E402  (scripts/serve.py)
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' flags)
from harness import boot  # noqa: E402
from think_time_browser import play_game  # noqa: E402

from trifront.ai.review import REVIEW_WORLDS  # noqa: E402
from trifront.replay import share_fragment  # noqa: E402

TARGET_S, TARGET_ACTIONS = 20.0, 40
RUNS = 3


def review_game(page) -> dict:
    """Click Review (game over, or a replay); the time until every move is answered, and
    the label of each move (None where the build has no labels)."""
    page.click("#btn-review")
    start = time.monotonic()
    page.wait_for_selector('#review-progress[data-status="done"]', timeout=300_000)
    seconds = time.monotonic() - start
    get = lambda name: int(page.get_attribute("#review-progress", f"data-{name}"))  # noqa: E731
    page.click("#review-table summary")
    page.wait_for_selector("#review-table[open]")
    rows = page.locator("#review-table tbody tr")
    labels = [rows.nth(i).get_attribute("data-label") for i in range(rows.count())]
    return {"seconds": seconds, "moves": get("total"), "actions": get("actions"),
            "worker_s": get("ms") / 1000, "worker": page.get_attribute("#app", "data-cpu"),
            "labels": labels}


def record_of(page) -> dict:
    """The finished game's record, from the game-over screen's download link."""
    href = page.get_attribute("#btn-record", "href")
    return json.loads(unquote(href.split(",", 1)[1]))


def one_game(browser, url: str, seed: int, again: bool) -> dict:
    """Play a game at ``url`` (seed), review it; with ``again`` review it RUNS - 1 more times
    from its share link, in fresh pages."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        play_game(page, f"{url}index.html?seed={seed}&cpu_delay=0", "easy")
        record = record_of(page)
        first = review_game(page)
    finally:
        context.close()
    runs = [first["labels"]]
    for _ in range(RUNS - 1 if again else 0):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.set_default_timeout(60_000)
        try:
            boot(page, f"{url}index.html#{share_fragment(record)}")
            page.wait_for_selector("#screen-replay")
            runs.append(review_game(page)["labels"])
        finally:
            context.close()
    return {**first, "runs": runs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1, help="?seed= of the first game (+1 each)")
    ap.add_argument("--compare", type=Path, default=None,
                    help="another checkout to time the same games' reviews in")
    args = ap.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} not found: run scripts/setup --browser")
    from playwright.sync_api import sync_playwright

    srv = serve.serve_in_thread(root=ROOT, port=0, quiet=True)
    old = serve.serve_in_thread(root=args.compare, port=0, quiet=True) if args.compare else None
    rows, old_rows = [], []
    print(f"review: {REVIEW_WORLDS} sampled worlds a move (no time cap)")
    print(f"{'game':>4} {'actions':>7} {'reviewed':>8} {'wall s':>7} {'worker s':>8} "
          f"{'s/move':>7} {'40-action s':>11} {'labels':>22}"
          + (f" {'previous s':>10} {'40-action':>9}" if old else ""))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=CHROMIUM_ARGS)
            for g in range(args.games):
                seed = args.seed + g
                try:
                    r = one_game(browser, srv.url, seed, again=True)
                    prev = one_game(browser, old.url, seed, again=False) if old else None
                except Exception as exc:  # noqa: BLE001 - a busy machine: go on
                    print(f"game {g + 1} lost: {str(exc).splitlines()[0]}", file=sys.stderr)
                    continue
                if r["worker"] != "ready":
                    print(f"warning: not in the worker ({r['worker']})", file=sys.stderr)
                per = r["seconds"] / max(r["moves"], 1)
                scaled = r["seconds"] * TARGET_ACTIONS / max(r["actions"], 1)
                rows.append(scaled)
                same = all(run == r["runs"][0] for run in r["runs"])
                bad = sum(1 for x in r["labels"] if x in ("mistake", "blunder"))
                tag = f"{'same' if same else 'DIFFER'} x{len(r['runs'])}, {bad} mistake+"
                line = (f"{g + 1:4d} {r['actions']:7d} {r['moves']:8d} {r['seconds']:7.1f} "
                        f"{r['worker_s']:8.1f} {per:7.2f} {scaled:11.1f} {tag:>22}")
                if prev:
                    old_scaled = prev["seconds"] * TARGET_ACTIONS / max(prev["actions"], 1)
                    old_rows.append(old_scaled)
                    line += f" {prev['seconds']:10.1f} {old_scaled:9.1f}"
                print(line, flush=True)
            browser.close()
    finally:
        for s in (srv, old):
            if s is not None:
                s.shutdown()
                s.server_close()
    if rows:
        worst = max(rows)
        print(f"\n40-action game: median {statistics.median(rows):.1f} s, worst {worst:.1f} s "
              f"(target <= {TARGET_S:.0f} s: {'ok' if worst <= TARGET_S else 'OVER'})")
    if old_rows:
        print(f"previous build, same games: median {statistics.median(old_rows):.1f} s, "
              f"worst {max(old_rows):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
