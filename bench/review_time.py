"""Benchmark: how long a whole game's review takes in the browser (target: a 40-action game
in <= 20 s, with progress).

Serves the repository (scripts/serve.py), opens the page in headless Chromium with the
browser tests' flags, plays whole Normal games against the Easy CPU by clicking
(bench/think_time_browser.py's play_game), then clicks Review on the game-over screen and
times it to "done" (``#review-progress[data-status="done"]``). The search runs in the CPU's
worker (trifront/ui/cpu_worker.py ``review``) at trifront/ai/review.py's REVIEW_BUDGET a
move. Prints per game: the game's actions, the moves reviewed, the wall time from the click
to the last answer, the worker's own search time, and the time scaled to a 40-action game.

    .venv/bin/python bench/review_time.py               # 3 games, seeds 1..3
    .venv/bin/python bench/review_time.py --games 5 --seed 11
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "bench"))
import serve  # noqa: E402  (scripts/serve.py)
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' flags)
from think_time_browser import play_game  # noqa: E402

from trifront.ai.review import REVIEW_BUDGET  # noqa: E402

TARGET_S, TARGET_ACTIONS = 20.0, 40


def review_game(page) -> dict:
    """Click Review on the game-over screen; the time until every move is answered."""
    page.click("#btn-review")
    start = time.monotonic()
    page.wait_for_selector('#review-progress[data-status="done"]', timeout=300_000)
    seconds = time.monotonic() - start
    get = lambda name: int(page.get_attribute("#review-progress", f"data-{name}"))  # noqa: E731
    return {"seconds": seconds, "moves": get("total"), "actions": get("actions"),
            "worker_s": get("ms") / 1000, "worker": page.get_attribute("#app", "data-cpu")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1, help="?seed= of the first game (+1 each)")
    args = ap.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} not found: run scripts/setup --browser")
    from playwright.sync_api import sync_playwright

    srv = serve.serve_in_thread(root=ROOT, port=0, quiet=True)
    rows = []
    print(f"review budget a move: {REVIEW_BUDGET[0]} iterations, at most {REVIEW_BUDGET[1]} s "
          f"(the move played, when another, half of that again)")
    print(f"{'game':>4} {'actions':>7} {'reviewed':>8} {'wall s':>7} {'worker s':>8} "
          f"{'s/move':>7} {'40-action s':>11}")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=CHROMIUM_ARGS)
            for g in range(args.games):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.set_default_timeout(60_000)
                try:
                    play_game(page, f"{srv.url}index.html?seed={args.seed + g}&cpu_delay=0",
                              "easy")
                    r = review_game(page)
                except Exception as exc:  # noqa: BLE001 - a busy machine: go on
                    print(f"game {g + 1} lost: {str(exc).splitlines()[0]}", file=sys.stderr)
                    continue
                finally:
                    context.close()
                if r["worker"] != "ready":
                    print(f"warning: not in the worker ({r['worker']})", file=sys.stderr)
                per = r["seconds"] / max(r["moves"], 1)
                scaled = r["seconds"] * TARGET_ACTIONS / max(r["actions"], 1)
                rows.append(scaled)
                print(f"{g + 1:4d} {r['actions']:7d} {r['moves']:8d} {r['seconds']:7.1f} "
                      f"{r['worker_s']:8.1f} {per:7.2f} {scaled:11.1f}", flush=True)
            browser.close()
    finally:
        srv.shutdown()
        srv.server_close()
    if rows:
        worst = max(rows)
        print(f"\n40-action game: median {statistics.median(rows):.1f} s, worst {worst:.1f} s "
              f"(target <= {TARGET_S:.0f} s: {'ok' if worst <= TARGET_S else 'OVER'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
