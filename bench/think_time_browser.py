"""Benchmark: how long the CPU thinks per move in the browser, in its web worker.

Serves the repository on 127.0.0.1 (scripts/serve.py), opens the page in Debian's headless
Chromium (/usr/bin/chromium or $TRIFRONT_CHROMIUM, the browser tests' flags), starts a Normal
game against the CPU at each strength, plays the human side by clicking (harness.take_turn:
the first usable card, first legal lane/face/target, else pass) through a WHOLE game, and
reads the CPU's own per-move compute times and search iterations: the worker's ``choose``
measures its wall time and counts the iterations its time cap let it run, and the page lists
them in ``#tf-root[data-cpu-ms]`` and ``[data-cpu-its]`` (docs/TESTING.md). Prints per
strength the number of CPU moves, p50 / p95 / max in seconds, and the iterations per move
(p50, p95, and how many moves ran the whole budget) of the moves that searched (a single
legal action is not searched).

``--compare DIR`` also serves DIR (another checkout of the repository, e.g. the commit
before a speed change, with web/vendor linked) and plays the same games on it, alternating
game by game, so that both are measured in one run on the same busy machine.

Targets (docs/CPU.md): Hard p95 <= 2 s, Normal p95 <= 0.7 s on this machine. The budgets are
trifront/ai/cpu.py BUDGETS (iteration cap, wall-time cap).

    .venv/bin/python bench/think_time_browser.py                 # hard, then normal
    .venv/bin/python bench/think_time_browser.py --strengths normal --games 2 --seed 7
    .venv/bin/python bench/think_time_browser.py --strengths hard --compare /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import serve  # noqa: E402  (scripts/serve.py)
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' flags)
from harness import boot, take_turn, wait_cpu  # noqa: E402

from trifront.ai.cpu import BUDGETS  # noqa: E402

TARGETS = {"hard": 2.0, "normal": 0.7}
NEXT_STOP = ('#screen-board[data-to-move="0"]:not([data-thinking]), #screen-round, '
             '#screen-over')


def summary(ms: list[float]) -> dict:
    """p50 / p95 / max / mean in seconds (p95: the same rank as bench/think_time.py)."""
    s = sorted(x / 1000 for x in ms)
    return {"moves": len(s), "p50": statistics.median(s),
            "p95": s[min(len(s) - 1, int(0.95 * len(s)))], "max": s[-1],
            "mean": statistics.fmean(s)}


def its_summary(its: list[int], budget: int | None) -> dict:
    """Iterations per searched move: p50 / p95 (as ``summary``'s ranks), and how many moves
    ran their whole budget. Moves with no search (0, a single legal action; -1, unknown)
    are left out."""
    s = sorted(n for n in its if n > 0)
    if not s:
        return {"searched": 0}
    return {"searched": len(s), "its_p50": statistics.median(s),
            "its_p5": s[int(0.05 * len(s))], "its_p95": s[min(len(s) - 1, int(0.95 * len(s)))],
            "full": sum(1 for n in s if budget is not None and n >= budget)}


def play_game(page, url: str, strength: str, max_turns: int = 400) -> dict:
    """One whole game at ``strength`` from the menu; the CPU's think times (ms) and result."""
    boot(page, url)
    wait_cpu(page)
    for opt in ("kind-cpu", "first-0", "mode-normal", f"strength-{strength}"):
        page.click(f"#opt-{opt}")
    page.click("#btn-start")
    start = time.monotonic()
    turns = 0
    while turns < max_turns:
        page.wait_for_selector(NEXT_STOP, timeout=120_000)
        if page.locator("#screen-over").count():
            break
        if page.locator("#screen-round").count():
            page.click("#btn-continue")
            continue
        take_turn(page)
        turns += 1
    else:
        raise RuntimeError(f"no game over after {max_turns} turns")
    raw = page.get_attribute("#tf-root", "data-cpu-ms") or ""
    raw_its = page.get_attribute("#tf-root", "data-cpu-its") or ""
    return {"ms": [float(x) for x in raw.split(",") if x],
            "its": [int(x) for x in raw_its.split(",") if x],
            "worker": page.get_attribute("#app", "data-cpu"),
            "result": page.inner_text("#over-title"), "score": page.inner_text("#final-score"),
            "seconds": time.monotonic() - start, "human_turns": turns}


def report(out: dict, args) -> None:
    """Print the table for the strengths measured so far (each as soon as it is done: a
    later game's failure loses nothing)."""
    print(f"\nCPU think time per move in the browser's worker (s), {args.games} whole "
          f"game(s) per strength; iterations per searched move")
    print(f"{'tree':8} {'strength':9} {'moves':>6} {'p50':>7} {'p95':>7} {'max':>7} "
          f"{'mean':>7}  {'target p95':14} {'searched':>8} {'its p5':>7} {'its p50':>7} "
          f"{'its p95':>7} {'full budget':>11}")
    for (name, strength), r in out.items():
        target = TARGETS.get(strength)
        verdict = "" if target is None else (
            f"<= {target:.1f} s {'ok' if r['p95'] <= target else 'OVER'}")
        its = (f"{r['searched']:8d} {r['its_p5']:7.0f} {r['its_p50']:7.0f} {r['its_p95']:7.0f} "
               f"{r['full']:5d} of {r['searched']:<3d}" if r.get("searched") else "")
        print(f"{name:8} {strength:9} {r['moves']:6d} {r['p50']:7.3f} {r['p95']:7.3f} "
              f"{r['max']:7.3f} {r['mean']:7.3f}  {verdict:14} {its}")
    if args.json:
        print(json.dumps({f"{name} {s}": {"ms": r["times_ms"], "its": r["its"]}
                          for (name, s), r in out.items()}))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strengths", default="hard,normal")
    ap.add_argument("--games", type=int, default=1, help="whole games per strength")
    ap.add_argument("--seed", type=int, default=1, help="?seed= of the first game (+1 each)")
    ap.add_argument("--json", action="store_true", help="also print the raw times as JSON")
    ap.add_argument("--compare", default="",
                    help="another checkout to measure in the same run, game by game")
    args = ap.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"{CHROMIUM} not found: run scripts/setup --browser")
    from playwright.sync_api import sync_playwright

    roots = {"this": ROOT}
    if args.compare:
        roots = {"compare": Path(args.compare).resolve(), "this": ROOT}
    servers = {name: serve.serve_in_thread(root=root, port=0, quiet=True)
               for name, root in roots.items()}
    out = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=CHROMIUM_ARGS)
            for strength in args.strengths.split(","):
                acc = {name: {"ms": [], "its": []} for name in roots}
                for g in range(args.games):
                    for name, srv in servers.items():
                        context = browser.new_context(viewport={"width": 1280, "height": 800})
                        page = context.new_page()
                        page.set_default_timeout(60_000)
                        try:
                            game = play_game(page, f"{srv.url}index.html?seed={args.seed + g}"
                                             "&cpu_delay=0", strength)
                        except Exception as exc:  # noqa: BLE001 - a busy machine: go on
                            print(f"{name} {strength} game {g + 1} lost: "
                                  f"{str(exc).splitlines()[0]}", file=sys.stderr, flush=True)
                            continue
                        finally:
                            context.close()
                        if game["worker"] != "ready":
                            print(f"warning: the CPU was not in its worker ({game['worker']})",
                                  file=sys.stderr)
                        acc[name]["ms"] += game["ms"]
                        acc[name]["its"] += game["its"]
                        print(f"{name} {strength} game {g + 1}: {len(game['ms'])} CPU moves, "
                              f"{game['result']} ({game['score']}), {game['seconds']:.0f} s",
                              flush=True)
                for name in (n for n in roots if acc[n]["ms"]):
                    budget = BUDGETS.get(strength, (None,))[0]
                    out[(name, strength)] = {"times_ms": acc[name]["ms"],
                                             "its": acc[name]["its"],
                                             **summary(acc[name]["ms"]),
                                             **its_summary(acc[name]["its"], budget)}
                report({k: v for k, v in out.items() if k[1] == strength}, args)
            browser.close()
    finally:
        for srv in servers.values():
            srv.shutdown()
            srv.server_close()

    return 0


if __name__ == "__main__":
    sys.exit(main())
