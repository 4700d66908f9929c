"""Benchmark: what spectators cost the relay (trifront_relay), on loopback.

The relay runs in its own process (``python -m trifront_relay``, production Limits). For
each W (watchers per room) and R rooms: 2R players and W·R watchers connect from source
addresses 127.0.0.2, 127.0.0.3, ... (the relay's per-address bounds stay the production ones),
then every room's host sends the watch messages of one whole game (F frames of the size the
host page sends: ~0.6-2.3 KiB, trifront/net/watch.py; random bytes stand in for the
ciphertext) as fast as the relay takes them, while every watcher counts what it receives.
Measured: the relay's CPU time (/proc) and bytes sent per delivered watch message, and the
relay's resident memory per connected watcher.

    .venv/bin/python bench/watch_load.py                 # W = 1, 8, 16; R = 20
    .venv/bin/python bench/watch_load.py --rooms 50 --watchers 16
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
FRAMES = 45                     # watch messages in one game (a Normal game's ~45 moves)


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def run(rooms: int, watchers: int, port: int, pid: int) -> dict:
    url = f"ws://127.0.0.1:{port}/"
    k = 0

    async def new():
        nonlocal k
        k += 1
        return await connect(url, compression=None, open_timeout=30,
                             local_addr=(f"127.0.0.{2 + k // 30}", 0))

    players, audience = [], []
    for r in range(rooms):
        a, b = await new(), await new()
        for ws in (a, b):
            await ws.send(json.dumps({"t": "join", "room": f"room {r}"}))
        players.append((a, b))
    rss_players = proc_rss(pid)
    for r in range(rooms):
        ws_list = []
        for _ in range(watchers):
            w = await new()
            await w.send(json.dumps({"t": "join", "room": f"room {r}", "watch": True}))
            assert json.loads(await asyncio.wait_for(w.recv(), 10))["watching"]
            ws_list.append(w)
        audience.append(ws_list)
    await asyncio.sleep(0.5)
    rss_watchers = proc_rss(pid)
    rng = random.Random(1)
    texts = [base64.b64encode(rng.randbytes(rng.randint(450, 1700))).decode()
             for _ in range(FRAMES)]
    got = [0]

    async def listen(w):
        while got[0] < rooms * watchers * FRAMES:
            try:
                msg = json.loads(await asyncio.wait_for(w.recv(), 20))
            except (TimeoutError, Exception):  # noqa: BLE001
                return
            if msg.get("t") == "watch":
                got[0] += 1
                if got[0] >= rooms * watchers * FRAMES:
                    return

    async def drain(ws):
        try:
            while True:
                await asyncio.wait_for(ws.recv(), 30)
        except Exception:  # noqa: BLE001
            return

    listeners = [asyncio.ensure_future(listen(w)) for ws_list in audience for w in ws_list]
    drains = [asyncio.ensure_future(drain(ws)) for pair in players for ws in pair]
    cpu0, t0 = proc_cpu(pid), time.monotonic()
    for i in range(FRAMES):
        for a, _b in players:
            await a.send(json.dumps({"t": "watch", "d": texts[i]}))
        await asyncio.sleep(0.01)
    await asyncio.wait(listeners, timeout=60)
    cpu, wall = proc_cpu(pid) - cpu0, time.monotonic() - t0
    delivered = got[0]
    for d in drains:
        d.cancel()
    for ws in [w for pair in players for w in pair] + [w for room in audience for w in room]:
        await ws.close()
    sent_bytes = sum(len(t) + 20 for t in texts) * rooms * watchers
    return {"rooms": rooms, "watchers": watchers, "delivered": delivered,
            "expected": rooms * watchers * FRAMES, "relay_cpu_s": round(cpu, 3),
            "wall_s": round(wall, 2),
            "us_per_delivery": round(cpu / max(1, delivered) * 1e6, 1),
            "game_cpu_ms_per_watcher": round(cpu / max(1, rooms * watchers) * 1e3, 2),
            "kib_per_watcher_game": round(sent_bytes / rooms / watchers / 1024, 1),
            "rss_kib_per_watcher": round((rss_watchers - rss_players) / (rooms * watchers)
                                         / 1024, 1)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--watchers", type=int, nargs="+", default=[1, 8, 16])
    args = parser.parse_args()
    results = []
    for w in args.watchers:
        relay = subprocess.Popen([sys.executable, "-m", "trifront_relay", "--host", "127.0.0.1",
                                  "--port", "0", "--quiet"], cwd=ROOT,
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
            results.append(asyncio.run(run(args.rooms, w, port, relay.pid)))
            print(json.dumps(results[-1]), flush=True)
        finally:
            relay.terminate()
            relay.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
