"""Benchmark: what sealed play (trifront/net/sealed.py) costs, per game and per move.

Plays whole random games between two in-memory SealedPages (both pages' work counted, no
network) and prints: the start (keys, deck commitments, the deal: both pages), each move's
whole exchange (move, reply, and the next-round draws where a round ends: both pages),
what today's authoritative host spends a move (the engine's step on the full state and
both player views, over games of the same kinds), the audit (one page), and messages and
bytes per game. On CPython, and unless --no-pyodide the same code in the browser itself
(the page's Pyodide in headless Chromium, bench/pyodide_call.py) and in Pyodide under Node
(npm `pyodide`, from scripts/setup). Targets (docs/ONLINE.md): 1 s at start, 50 ms a move,
median and p95, in the browser.

    python bench/sealed_cost.py --games 20
    python bench/sealed_cost.py --games 10 --no-pyodide
    python bench/sealed_cost.py --games 10 --no-pyodide --compare main~5
    python bench/sealed_cost.py --games 4 --signing    # the signatures' cost per move

``--compare REV`` also runs the same games on CPython with the trifront of git revision
REV (a copy in a temporary folder) in this run, so both builds meet the same machine load.

This file also runs inside Pyodide (bench/pyodide_run.mjs), so it imports nothing beyond
the standard library and `trifront`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def _game(g: int):
    """Game `g`'s chooser, mode and effect sets: Normal and Draft in turn."""
    from trifront.cards import GROUP_EFFECTS, GROUPS, NORMAL_EFFECTS
    r = random.Random(g)
    if g % 2 == 0:
        return r, "normal", [dict(NORMAL_EFFECTS), dict(NORMAL_EFFECTS)]
    return r, "draft", [{k: r.choice(GROUP_EFFECTS[k]) for k in GROUPS} for _ in (0, 1)]


def run(games: int) -> dict:
    from trifront.net.sealed import SealedPage, audit
    from trifront.rules import legal_actions

    starts, moves, audits, messages, sizes = [], [], [], [], []
    clock = time.perf_counter
    for g in range(games):
        r, mode, effects = _game(g)
        wire: list[dict] = []

        def sent(msg: dict) -> dict:
            wire.append(msg)
            return msg
        t0 = clock()
        pages = [SealedPage(p, mode, effects) for p in (0, 1)]
        hellos = [sent(pages[p].hello()) for p in (0, 1)]
        deals = [sent(pages[p].on_hello(hellos[1 - p])) for p in (0, 1)]
        for p in (0, 1):
            pages[p].on_deal(deals[1 - p])
        starts.append(clock() - t0)
        world = pages[0].world.state
        while not world.over:
            a = world.to_move
            action = r.choice(legal_actions(pages[a].world.state))
            t0 = clock()
            reply = sent(pages[1 - a].on_move(sent(pages[a].act(action))))
            later = pages[a].on_reply(reply)
            if later is not None:
                pages[1 - a].on_draws(sent(later))
            moves.append(clock() - t0)
        reveals = [sent(pages[p].reveal()) for p in (0, 1)]
        t0 = clock()
        report = audit(mode, effects, pages[0].transcript, reveals)
        audits.append(clock() - t0)
        assert report.fair, report.summary()
        messages.append(len(wire))
        sizes.append(sum(len(json.dumps(m, separators=(",", ":"))) for m in wire))
    engine = host_steps(games)
    ms = 1000.0
    return {
        "games": games, "moves": len(moves),
        "start_ms": [_pct(starts, 0.5) * ms, _pct(starts, 0.95) * ms],
        "move_ms": [_pct(moves, 0.5) * ms, _pct(moves, 0.95) * ms],
        "engine_ms": [_pct(engine, 0.5) * ms, _pct(engine, 0.95) * ms],
        "audit_ms": [_pct(audits, 0.5) * ms, _pct(audits, 0.95) * ms],
        "messages": sum(messages) / games, "kbytes": sum(sizes) / games / 1024,
    }


async def signing_cost(games: int) -> dict:
    """Per move, what the signatures cost both pages (trifront/net/signed_channel.py): each
    sealed message of a move's exchange signed by its sender's channel and checked by the
    other's, as the pages do (WebCrypto in the browser, PyPI cryptography on CPython)."""
    from trifront.net.sealed import SealedPage
    from trifront.net.signed_channel import SignedChannel
    from trifront.net.signing import new_keys
    from trifront.rules import legal_actions

    chans = [SignedChannel(await new_keys(), p) for p in (0, 1)]
    for p in (0, 1):
        chans[p].theirs, chans[p].proved = chans[1 - p].mine, True
    places = [0, 0]
    clock = time.perf_counter

    async def carry(p: int, msg: dict) -> float:
        """Page p's message signed by p and checked by the other: the time both took."""
        text = json.dumps({"t": "sealed", "game": "g", "i": places[p], "m": msg,
                           "clock": [0, 0]}, separators=(",", ":"))
        places[p] += 1
        t0 = clock()
        await chans[1 - p].incoming(await chans[p].outgoing(text))
        return clock() - t0

    moves = []
    for g in range(games):
        r, mode, effects = _game(g)
        pages = [SealedPage(p, mode, effects) for p in (0, 1)]
        hellos = [pages[p].hello() for p in (0, 1)]
        deals = [pages[p].on_hello(hellos[1 - p]) for p in (0, 1)]
        for p in (0, 1):
            pages[p].on_deal(deals[1 - p])
        world = pages[0].world.state
        while not world.over:
            a = world.to_move
            action = r.choice(legal_actions(pages[a].world.state))
            move = pages[a].act(action)
            spent = await carry(a, move)
            reply = pages[1 - a].on_move(move)
            spent += await carry(1 - a, reply)
            later = pages[a].on_reply(reply)
            if later is not None:
                spent += await carry(a, later)
                pages[1 - a].on_draws(later)
            moves.append(spent)
    ms = 1000.0
    return {"games": games, "moves": len(moves),
            "sign_ms": [_pct(moves, 0.5) * ms, _pct(moves, 0.95) * ms]}


def host_steps(games: int) -> list[float]:
    """Per move, what today's authoritative host does: `rules.apply` on the full state and
    a player view for each side (docs/ONLINE.md), over random games of the same kinds."""
    from trifront.rules import apply, legal_actions, new_state
    from trifront.views import player_view
    times = []
    clock = time.perf_counter
    for g in range(games):
        r, mode, effects = _game(g)
        state = new_state(mode, effects, g % 2, g)
        while not state.over:
            action = r.choice(legal_actions(state))
            t0 = clock()
            apply(state, action)
            player_view(state, 0)
            player_view(state, 1)
            times.append(clock() - t0)
    return times


def pyodide_figures(games: int) -> dict | None:
    from pyodide_call import call_in_pyodide
    return call_in_pyodide("sealed_cost.py", "run", games)


def chromium_figures(games: int) -> dict | None:
    from pyodide_call import call_in_chromium
    return call_in_chromium("sealed_cost.py", "run", games)


def chromium_signing(games: int) -> dict | None:
    from pyodide_call import call_in_chromium
    return call_in_chromium("sealed_cost.py", "signing_cost", games, awaited=True)


def show(where: str, f: dict) -> None:
    print(f"{where}: {f['games']} games, {f['moves']} moves")
    for key, label in (("start_ms", "start (both pages)"), ("move_ms", "a move's exchange"),
                       ("engine_ms", "host step today"), ("audit_ms", "audit (one page)")):
        p50, p95 = f[key]
        print(f"  {label:<22} median {p50:7.2f} ms   p95 {p95:7.2f} ms")
    print(f"  messages a game {f['messages']:.1f}, {f['kbytes']:.1f} KiB of JSON")


def other_build(rev: str, games: int) -> dict:
    """`run(games)` on CPython with git revision `rev`'s trifront (a copy of it), by this
    file (the pages' calls it makes are the same in every build)."""
    import shutil
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as where:
        archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "trifront"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
        os.mkdir(os.path.join(where, "bench"))
        shutil.copy(os.path.abspath(__file__), os.path.join(where, "bench"))
        out = subprocess.run([sys.executable, os.path.join(where, "bench", "sealed_cost.py"),
                              "--games", str(games), "--json"], check=True,
                             capture_output=True, text=True, cwd=where).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    parser.add_argument("--compare", metavar="REV", help="also this git revision's build "
                        "(CPython), in the same run")
    parser.add_argument("--json", action="store_true", help="CPython's figures as one JSON "
                        "line (what --compare reads)")
    parser.add_argument("--signing", action="store_true", help="only the signatures' cost "
                        "per move (both pages), on CPython and in Chromium")
    args = parser.parse_args()
    if args.signing:
        import asyncio
        for where, f in (("CPython", asyncio.run(signing_cost(args.games))),
                         ("Chromium (the page's Pyodide, WebCrypto)", None
                          if args.no_pyodide else
                          chromium_signing(args.games))):
            if f is not None:
                print(f"{where}: {f['moves']} moves, signatures per move (both pages) "
                      f"median {f['sign_ms'][0]:.2f} ms, p95 {f['sign_ms'][1]:.2f} ms "
                      f"({'within' if f['sign_ms'][0] <= 20.0 else 'OVER'} the 20 ms "
                      f"median target)")
        return
    if args.json:
        print(json.dumps(run(args.games)))
        return
    if args.compare:
        show(f"CPython, revision {args.compare}", other_build(args.compare, args.games))
    show("CPython " + sys.version.split()[0], run(args.games))
    if not args.no_pyodide:
        web = chromium_figures(args.games)
        if web is not None:
            show("Chromium (the page's Pyodide)", web)
            for key, target in (("start_ms", 1000.0), ("move_ms", 50.0)):
                print(f"  {key}: {'within' if max(web[key]) <= target else 'OVER'} the "
                      f"{target:g} ms target (median and p95)")
        pyo = pyodide_figures(args.games)
        if pyo is not None:
            show("Pyodide under Node", pyo)


if __name__ == "__main__":
    main()
