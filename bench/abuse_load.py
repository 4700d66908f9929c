"""Benchmark: what hostile pages, spectators and relays cost the players (docs/ONLINE.md,
"Bounded work"). Target: both players can still move within 1 s, and a page's main thread
is never busy more than 200 ms at a time, under 60 churning spectators.

1. The relay (``python -m trifront_relay``, production Limits, its own process), on
   loopback: two players in a room play a game of messages through it (each move a relay
   ``game`` message answered by the other, as the fallback path carries them), while 60
   spectators from 4 addresses (127.0.0.2-5) join and leave the room as fast as the relay
   answers them. Measured: a move's round trip (p50, p95, max), the watcher notices each
   player received per second, the joins the relay let through and refused; the same game
   without spectators for comparison.
2. The page, on CPython: the real sessions and App of two players (tests/ui's in-memory
   relay, the page drawn into a fake DOM tree), the browser's animation frames run every
   16 ms of the page's clock. The opponent's page floods this one with each attack (a
   "have" sweep, busy, quick messages, pings, rematches, padded card states) and a relay
   tells the watchers' count 5,000 times; then the player moves. Measured: the longest
   single piece of work on the page's thread (one message handled, or one frame drawn), the
   messages it sent back, the redraws, and whether its move went out and was answered (a
   padded card state is refused: the game stops there, judged, and its audit and the
   game-over screen are that attack's longest work).

    .venv/bin/python bench/abuse_load.py
    .venv/bin/python bench/abuse_load.py --spectators 60 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else 0.0


# ----------------------------------------------------------------------------- the relay

async def relay_run(port: int, spectators: int, moves: int) -> dict:
    from websockets.asyncio.client import connect
    url = f"ws://127.0.0.1:{port}/"

    async def client(addr: str):
        return await connect(url, compression=None, open_timeout=30, local_addr=(addr, 0))

    a, b = await client("127.0.0.1"), await client("127.0.0.1")
    room = "abuse room"
    for ws in (a, b):
        await ws.send(json.dumps({"t": "join", "room": room}))
    notices = [0, 0]
    inbox: list[asyncio.Queue] = [asyncio.Queue(), asyncio.Queue()]

    async def read(i, ws):
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("t") == "watchers":
                    notices[i] += 1
                elif msg.get("t") == "game":
                    inbox[i].put_nowait(msg["d"])
        except Exception:  # noqa: BLE001 - closed at the end
            return
    readers = [asyncio.ensure_future(read(i, ws)) for i, ws in enumerate((a, b))]
    crowd = [await client(f"127.0.0.{2 + k % 4}") for k in range(spectators)]
    joins = {"joined": 0, "refused": 0}
    stop = asyncio.Event()

    async def churn(ws):
        try:
            while not stop.is_set():
                await ws.send(json.dumps({"t": "join", "room": room, "watch": True}))
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg.get("t") == "joined":
                    joins["joined"] += 1
                    await ws.send(json.dumps({"t": "leave"}))
                else:
                    joins["refused"] += 1
        except Exception:  # noqa: BLE001 - closed at the end
            return
    await asyncio.sleep(0.5)
    churners = [asyncio.ensure_future(churn(ws)) for ws in crowd]
    await asyncio.sleep(1.0)
    rtt = []
    t0 = time.monotonic()
    for k in range(moves):
        mover, other = (a, 1) if k % 2 == 0 else (b, 0)
        start = time.monotonic()
        await mover.send(json.dumps({"t": "game", "d": f"move {k}"}))
        await asyncio.wait_for(inbox[other].get(), 10)
        await (b if other == 1 else a).send(json.dumps({"t": "game", "d": f"reply {k}"}))
        await asyncio.wait_for(inbox[1 - other].get(), 10)
        rtt.append((time.monotonic() - start) * 1000)
        await asyncio.sleep(0.05)
    wall = time.monotonic() - t0
    stop.set()
    for task in churners:
        task.cancel()
    for ws in (a, b, *crowd):
        await ws.close()
    for task in readers:
        task.cancel()
    return {"spectators": spectators, "moves": moves,
            "move_rtt_ms_p50": round(statistics.median(rtt), 1),
            "move_rtt_ms_p95": round(pct(rtt, 0.95), 1), "move_rtt_ms_max": round(max(rtt), 1),
            "watcher_notices_per_s": [round(n / (wall + 1.0), 2) for n in notices],
            "watch_joins": joins}


def relay_part(spectators: int, moves: int, root: Path = ROOT) -> list[dict]:
    out = []
    for n in (0, spectators):
        relay = subprocess.Popen([sys.executable, "-m", "trifront_relay", "--host", "127.0.0.1",
                                  "--port", "0", "--quiet"], cwd=root,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            port = None
            deadline = time.monotonic() + 20
            while port is None and time.monotonic() < deadline:
                line = relay.stdout.readline()
                if "listening on" in line:
                    port = int(line.rstrip().rstrip("/").rsplit(":", 1)[-1])
            if port is None:
                raise RuntimeError("the relay did not say its port")
            out.append(asyncio.run(relay_run(port, n, moves)))
        finally:
            relay.terminate()
            relay.wait(10)
    return out


# ------------------------------------------------------------------------------ the page

def page_part() -> list[dict]:
    from trifront.net.protocol import encode
    from tests.ui.test_online import FakeRelay, online_app

    results = []

    def attack(name, texts_of):
        now = [100.0]
        relay = FakeRelay()
        (a, _pa), (b, _pb) = (online_app(relay, clock=lambda: now[0]),
                              online_app(relay, clock=lambda: now[0]))
        frames: list = []
        for app in (a, b):
            app.frame = frames.append
            app.spawn = lambda coro: coro.close()   # (no claim-win ticker: frames run here)
        a.dispatch("start")
        b.dispatch("start")
        longest = [0.0]

        def timed(fn, *args):
            t = time.perf_counter()
            fn(*args)
            longest[0] = max(longest[0], time.perf_counter() - t)

        def frame():
            now[0] += 0.016
            waiting, frames[:] = list(frames), []
            for callback in waiting:
                timed(callback)

        def settle(n=20):
            for _ in range(n):
                while relay.q:
                    timed(relay.q.popleft())
                frame()
        settle()
        host = a.match.session
        mover = a if a.match.view()["to_move"] == a.match.me else b
        longest[0] = 0.0
        sent, renders = relay.sent, a.renders
        texts = texts_of(a, host)
        for i, text in enumerate(texts):
            if isinstance(text, int):
                timed(a.match.link_watchers, text)
            else:
                timed(a.match.link_message, text)
            if i % 200 == 199:
                frame()                       # the flood spans frames, as on a real page
        frame()
        out = relay.sent - sent
        view = mover.match.view()
        action = view["legal"][0]
        t = time.perf_counter()
        if host.game.error is None:
            mover.match.act(action)
        settle()
        answered = mover.match.view()["history"] and not mover.match.pending
        if host.game.error is not None:       # refused: the game stops there, judged
            answered = f"no: the game stopped, refused ({host.game.error['code']})"
        results.append({"attack": name, "in": len(texts), "sent_back": out,
                        "redraws": a.renders - renders,
                        "longest_work_ms": round(longest[0] * 1000, 2),
                        "move_answered": answered if isinstance(answered, str) else bool(answered),
                        "move_ms": round((time.perf_counter() - t) * 1000, 1)})

    def have_sweep(a, host):
        n = len(host.game.sent) + 1
        return [encode("have", game=host.game.game, n=k, clock=[0, 0])
                for k in list(range(n)) * 30]

    attack("have sweep", have_sweep)
    attack("busy", lambda a, h: [encode("busy", error="x" * 400)] * 5000)
    attack("quick messages", lambda a, h: [encode("say", id="gg")] * 5000)
    attack("ping", lambda a, h: [encode("ping", k=1)] * 5000)
    attack("rematch", lambda a, h: [encode("rematch", game=h.game_id, mode=None)] * 5000)
    card = {"id": 3, "soldier": False, "roll": None, "penalty": False,
            "changes": [["R5.C5", 1]] * 4000}
    attack("padded card state", lambda a, h: [encode(
        "sealed", game=h.game.game, i=h.game.received,
        m={"t": "move", "n": 0, "move": {"type": "play", "card": 3, "lane": 0, "face": "up"},
           "card": card, "from": [0, 0, "0" * 64]}, clock=[0, 0])] * 50)
    attack("watchers' count", lambda a, h: [1 + i % 60 for i in range(5000)])
    return results


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spectators", type=int, default=60)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--no-relay", action="store_true")
    parser.add_argument("--no-page", action="store_true")
    parser.add_argument("--relay-from", type=Path, default=ROOT,
                        help="a checkout whose relay to run (another revision, to compare)")
    args = parser.parse_args()
    print("The page (CPython, the real sessions and App; animation frames every 16 ms):")
    for r in ([] if args.no_page else page_part()):
        print(f"  {r['attack']:<20} {r['in']:5d} in, {r['sent_back']:4d} sent back, "
              f"{r['redraws']:3d} redraws, longest work {r['longest_work_ms']:7.2f} ms, "
              f"then a move answered: {r['move_answered']} ({r['move_ms']} ms)")
    if not args.no_relay:
        print("The relay (its own process, production Limits), a game of moves through it:")
        for r in relay_part(args.spectators, args.moves, args.relay_from):
            print(f"  {r['spectators']:3d} spectators churning: move round trip p50 "
                  f"{r['move_rtt_ms_p50']} ms, p95 {r['move_rtt_ms_p95']} ms, max "
                  f"{r['move_rtt_ms_max']} ms; watcher notices/s per player "
                  f"{r['watcher_notices_per_s']}; watcher joins {r['watch_joins']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
