"""Benchmark: online play latency.

1. In real headless Chromium (loopback-only network namespace, the local relay;
   tests/browser/online_match.py plays a whole Normal game by clicking), on the direct path
   (two contexts) and, with --fallback, on the fallback path (two processes, no direct path:
   nftables drops all but TCP to the server and the relay; needs nft), and with
   --nostr-fallback on the fallback through a local Nostr relay (the same, over Nostr):
   - time to first move: from the second page's join click to the first move shown on both;
   - pairing -> channel open: from the relay's "paired" to the data channel's "open" (ms),
     or, on the fallback, pairing -> the relay path in use (over Nostr: seen on the fallback
     topic -> the Nostr path in use), and the events each page published;
   - action -> applied on the other side: from the acting click (a capturing listener, before
     the page's own handler) to the other page showing the new position (a MutationObserver),
     one shared clock (Date.now()); median and p95 over every action of the game;
   - click -> own move on own board: from that click to the acting page's own hand showing
     one card less (every play and discard; the reply is not waited for).
2. On CPython, the protocol alone (no transport): host applies an action, builds and encodes
   the guest's view; the guest decodes, checks and digests it (trifront/net, in-memory pipe).

    python bench/online_latency.py              # both (the browser part needs root: unshare -n)
    python bench/online_latency.py --fallback   # ... and a game through the relay
    python bench/online_latency.py --nostr-fallback   # ... and one through a Nostr relay
    python bench/online_latency.py --no-browser
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def line(name, values, unit="ms"):
    print(f"  {name:<34} median {statistics.median(values):7.1f} {unit}   "
          f"p95 {pct(values, 0.95):7.1f} {unit}   (n={len(values)})")


def browser(scenarios):
    helper = os.path.join(ROOT, "tests", "browser", "online_match.py")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        script = f'ip link set lo up && exec "{sys.executable}" "{helper}" --out "{out}" ' \
                 + " ".join(scenarios)
        env = dict(os.environ, TF_FALLBACK_ROOM="no-direct-path")   # a relay that tampers not
        subprocess.run(["unshare", "-n", "sh", "-c", script], check=True, timeout=900, env=env)
        results = json.load(open(out))
    for name, r in results.items():
        if "exception" in r:
            print(f"{name}: FAILED\n{r['exception']}")
            continue
        label = {"contexts": "two contexts of one Chromium, direct path",
                 "processes": "two Chromium processes, direct path",
                 "fallback": "two Chromium processes, no direct path: through the relay",
                 "nostr-fallback": "two Chromium processes, no direct path, Nostr signaling: "
                                   "through the Nostr relay",
                 }.get(name, name)
        print(f"Browser, {label}: a whole game of {r['actions']} actions in {r['seconds']} s")
        if r.get("first_move_ms") is not None:
            print(f"  {'time to first move':<34} {r['first_move_ms']:7.0f} ms")
        if name == "fallback":
            line("pairing -> relay path in use", r["fallback_ms"])
        elif name == "nostr-fallback":
            line("met -> Nostr path in use", r["fallback_ms"])
            for who, n in r["events"].items():
                print(f"  {'events published by the ' + who:<34} {n:7d}   "
                      f"{r['event_bytes'][who] / 1024:7.0f} KiB (to each relay)")
        else:
            line("pairing -> channel open", [x for x in r["channel_ms"] if x is not None])
        line("action -> applied on the other side", r["latency_ms"])
        if r.get("own_ms"):
            line("click -> own move on own board", r["own_ms"])


def protocol(games=20):
    from tests.net.pipe import random_action
    from tests.net.test_sealed_match import Pipe

    per_action, sizes = [], []
    for g in range(games):
        rng = random.Random(g)
        pipe = Pipe("normal")
        pipe.connect()
        while not pipe.s[0].view()["over"]:
            mover = pipe.s[0].view()["to_move"]
            action = random_action(pipe.s[mover].view(), rng)
            sent = len(pipe.wire)
            t = time.perf_counter()
            pipe.s[mover].act(action)
            pipe.pump()      # the move, and the other page's reply
            per_action.append((time.perf_counter() - t) * 1000)
            sizes.extend(len(text) for _to, text in pipe.wire[sent:])
    print(f"CPython {sys.version.split()[0]}, protocol only ({games} games, in-memory pipe):")
    line("action -> both pages have the move and its reply", per_action)
    line("message size", [s / 1024 for s in sizes], "KiB")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--processes", action="store_true",
                        help="also measure two browser processes (a Draft game)")
    parser.add_argument("--fallback", action="store_true",
                        help="also measure a game through the relay (no direct path)")
    parser.add_argument("--nostr-fallback", action="store_true",
                        help="also measure a game through a local Nostr relay (no direct path)")
    args = parser.parse_args()
    protocol()
    if not args.no_browser:
        browser(["contexts"] + (["processes"] if args.processes else [])
                + (["fallback"] if args.fallback else [])
                + (["nostr-fallback"] if args.nostr_fallback else []))
    return 0


if __name__ == "__main__":
    sys.exit(main())
