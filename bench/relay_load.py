"""Benchmark: a bounded load test of the relay (trifront_relay) on loopback.

For each R (rooms), with the relay's default Limits, in a subprocess
(``python -m trifront_relay --host 127.0.0.1 --port 0``):
  1. connect 2R WebSocket clients (at most 100 handshakes at a time);
  2. pair: the first client of every room joins, then the second, all rooms at once; a room is
     paired when both clients heard "paired" -> rooms paired per second;
  3. signal: every room exchanges M messages the way WebRTC signaling does (offer ~3 KiB,
     answer ~3 KiB, then ~250-byte ICE candidates, alternating sides), all rooms at once ->
     messages forwarded per second and the one-way latency (send -> the peer's receive) p50/p95;
  4. close every client.
The relay's resident memory (VmRSS) is read before (idle) and with every room paired, and its
CPU time per phase from /proc. The relay is one asyncio process (one core); this load
generator is another Python process on the same 2-core machine, so the figures are a lower
bound on what the relay alone could do.

Clients spread over the source addresses 127.0.0.2, 127.0.0.3, ... (16 rooms = 32 clients on
each), because the relay caps rooms and connections per address (Limits.rooms_per_address = 32,
clients_per_address = 64): the limits stay the production ones. Loopback only; every wait has
a time-out, every loop a fixed count; the relay is stopped at the end.

    .venv/bin/python bench/relay_load.py                    # R = 50, 200, 1000; M = 24
    .venv/bin/python bench/relay_load.py --rooms 50 500 --messages 40
    .venv/bin/python bench/relay_load.py --rooms --games 1 50   # fallback games only

Fallback games (``--games G ...``): G whole games played at once through the relay, each in
its own room, as two pages with no direct path send them (trifront/net/link.py): the messages
of one real game (a host and a guest session playing random legal moves on CPython, Normal
mode, seed 1), cut into the link's frames (trifront/net/stream.py), each sealed
(trifront/net/e2e.py: 8-byte number + 16-byte tag, base64) and sent as a relay "game"
message, with one acknowledgement back for each message; each room sends its next message
when the previous one arrived (a game is a conversation). Reported: messages and bytes per
game, the relay's CPU time per game, and any refusal by the relay's per-room budget.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

from websockets.asyncio.client import connect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOMS_PER_ADDRESS = 16         # 32 clients per source address: within the relay's limits
PHASE_TIMEOUT = 60.0           # seconds any one phase may take
CONCURRENT_HANDSHAKES = 100


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else 0.0


class RelayProcess:
    """The relay as a subprocess on 127.0.0.1 at a free port."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "trifront_relay", "--host", "127.0.0.1", "--port", "0",
             "--quiet"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.proc.stdout.readline()
        match = re.search(r"ws://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.stop()
            raise SystemExit(f"the relay did not start: {line!r}")
        self.url = f"ws://127.0.0.1:{match.group(1)}/"

    def rss_kib(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


async def recv_json(ws, timeout=PHASE_TIMEOUT) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def expect(ws, kind: str) -> dict:
    for _ in range(10):  # bounded: skip at most a few other messages
        msg = await recv_json(ws)
        if msg.get("t") == kind:
            return msg
        if msg.get("t") == "error":
            raise RuntimeError(f"relay error: {msg}")
    raise RuntimeError(f"no {kind!r}")


def payload(k: int) -> str:
    """The k-th signaling message of a room: offer, answer, then ICE candidates."""
    return "x" * (3000 if k < 2 else 250)


async def one_round(relay: RelayProcess, rooms: int, messages: int, tag: str) -> dict:
    out: dict = {"rooms": rooms, "messages": messages}
    rss_idle = relay.rss_kib()
    sem = asyncio.Semaphore(CONCURRENT_HANDSHAKES)

    async def open_client(i: int):
        source = f"127.0.0.{2 + (i // 2) // ROOMS_PER_ADDRESS}"
        async with sem:
            return await connect(relay.url, local_addr=(source, 0), compression=None,
                                 open_timeout=PHASE_TIMEOUT, max_queue=None)

    clients = []
    try:
        # 1. connect
        t = time.perf_counter()
        cpu = relay.cpu_seconds()
        clients = await asyncio.wait_for(
            asyncio.gather(*(open_client(i) for i in range(2 * rooms))), PHASE_TIMEOUT)
        out["connect_s"] = time.perf_counter() - t
        out["connect_cpu"] = relay.cpu_seconds() - cpu

        # 2. pair
        async def pair(r: int):
            a, b = clients[2 * r], clients[2 * r + 1]
            word = f"{tag}-room-{r}"
            await a.send(json.dumps({"t": "join", "room": word}))
            await expect(a, "joined")
            await b.send(json.dumps({"t": "join", "room": word}))
            got = await asyncio.gather(expect(a, "paired"), expect(b, "paired"))
            assert got[0]["offer"] is True and got[1]["offer"] is False, got

        t = time.perf_counter()
        cpu = relay.cpu_seconds()
        await asyncio.wait_for(asyncio.gather(*(pair(r) for r in range(rooms))), PHASE_TIMEOUT)
        out["pair_s"] = time.perf_counter() - t
        out["pair_cpu"] = relay.cpu_seconds() - cpu
        out["rss_idle_kib"] = rss_idle
        out["rss_paired_kib"] = relay.rss_kib()

        # 3. signal: M messages a room, alternating sides, each waiting for the previous one
        # (an answer follows its offer); all rooms at once.
        latencies: list[float] = []

        async def exchange(r: int):
            ends = (clients[2 * r], clients[2 * r + 1])
            for k in range(messages):
                src, dst = ends[k % 2], ends[1 - k % 2]
                sent = time.perf_counter()
                await src.send(json.dumps({"t": "signal",
                                           "data": {"k": k, "sdp": payload(k)}}))
                msg = await expect(dst, "signal")
                latencies.append(time.perf_counter() - sent)
                assert msg["data"]["k"] == k, msg

        t = time.perf_counter()
        cpu = relay.cpu_seconds()
        await asyncio.wait_for(asyncio.gather(*(exchange(r) for r in range(rooms))),
                               PHASE_TIMEOUT)
        out["signal_s"] = time.perf_counter() - t
        out["signal_cpu"] = relay.cpu_seconds() - cpu
        out["latency_ms"] = [x * 1000 for x in latencies]
        out["rss_after_kib"] = relay.rss_kib()
    finally:
        # 4. close
        await asyncio.wait_for(asyncio.gather(*(c.close() for c in clients),
                                              return_exceptions=True), PHASE_TIMEOUT)
    await asyncio.sleep(0.5)
    out["rss_closed_kib"] = relay.rss_kib()
    return out


def game_trace(seed: int = 1) -> list[tuple[int, str]]:
    """The messages of one whole online game, in order: (0 host -> guest | 1 guest -> host,
    text), from the real sessions on CPython (tests/net/test_sealed_match.py's pipe)."""
    import random

    sys.path.insert(0, ROOT)
    from tests.net.test_sealed_match import Pipe

    pipe = Pipe("normal")
    pipe.connect()
    pipe.play(random.Random(seed))
    # what page ``to`` received, the other sent
    return [(1 - to, text) for to, text in pipe.wire]


def relay_messages(trace: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """The trace as the relay sees it: (sender, length of the "game" message's text), an
    acknowledgement back after each message."""
    from trifront.net.stream import Stream
    streams = (Stream(), Stream())
    out = []
    for side, text in trace:
        for frame in streams[side].send(text):
            out.append((side, 4 * ((8 + len(frame.encode()) + 16 + 2) // 3)))
        out.append((1 - side, 4 * ((8 + len(f"a{streams[side].sent}") + 16 + 2) // 3)))
    return out


async def fallback_round(relay: RelayProcess, games: int, msgs: list[tuple[int, int]],
                         tag: str) -> dict:
    import base64
    out: dict = {"games": games, "messages": len(msgs), "bytes": sum(n for _s, n in msgs)}
    clients = []
    refused = 0
    try:
        for g in range(games):
            source = f"127.0.0.{2 + g // ROOMS_PER_ADDRESS}"
            a = await connect(relay.url, local_addr=(source, 0), compression=None)
            b = await connect(relay.url, local_addr=(source, 0), compression=None)
            for ws in (a, b):
                await ws.send(json.dumps({"t": "join", "room": f"{tag}-game-{g}"}))
            await expect(a, "paired")
            await expect(b, "paired")
            clients.append((a, b))
        texts = {}
        for _side, n in msgs:
            if n not in texts:
                texts[n] = base64.b64encode(os.urandom(n))[:n].decode()

        async def one_game(a, b):
            nonlocal refused
            ends = (a, b)
            for side, n in msgs:
                await ends[side].send(json.dumps({"t": "game", "d": texts[n]}))
                got = await recv_json(ends[1 - side])
                if got.get("t") != "game":
                    raise RuntimeError(f"not forwarded: {got}")
            # a refusal goes to the sender: none may be waiting
            for ws in ends:
                try:
                    extra = await asyncio.wait_for(ws.recv(), 0.05)
                    refused += "too many game messages" in extra
                except TimeoutError:
                    pass

        t = time.perf_counter()
        cpu = relay.cpu_seconds()
        await asyncio.wait_for(asyncio.gather(*(one_game(a, b) for a, b in clients)),
                               PHASE_TIMEOUT * 5)
        out["play_s"] = time.perf_counter() - t
        out["play_cpu"] = relay.cpu_seconds() - cpu
        out["refused"] = refused
    finally:
        await asyncio.gather(*(ws.close() for pair in clients for ws in pair),
                             return_exceptions=True)
    return out


def report_fallback(r: dict, trace_len: int) -> None:
    games = r["games"]
    print(f"G = {games} fallback game(s) at once: {trace_len} game messages a game -> "
          f"{r['messages']} relay messages, {r['bytes'] / 1024:.0f} KiB a game")
    print(f"  played      {r['play_s']:6.2f} s   relay CPU {r['play_cpu']:5.2f} s "
          f"({r['play_cpu'] / games * 1000:.0f} ms a game, "
          f"{r['play_cpu'] / (games * r['messages']) * 1e6:.0f} us a message)   "
          f"refused by the room budget: {r['refused']}")


def report(r: dict) -> None:
    rooms, messages = r["rooms"], r["messages"]
    lat = r["latency_ms"]
    per_room_kib = (r["rss_paired_kib"] - r["rss_idle_kib"]) / rooms
    print(f"R = {rooms} rooms ({2 * rooms} sockets), M = {messages} messages a room")
    print(f"  connect     {r['connect_s']:6.2f} s  {2 * rooms / r['connect_s']:8.0f} sockets/s"
          f"   relay CPU {r['connect_cpu']:5.2f} s")
    print(f"  pair        {r['pair_s']:6.2f} s  {rooms / r['pair_s']:8.0f} rooms paired/s"
          f"   relay CPU {r['pair_cpu']:5.2f} s")
    print(f"  signal      {r['signal_s']:6.2f} s  {rooms * messages / r['signal_s']:8.0f} "
          f"messages forwarded/s   relay CPU {r['signal_cpu']:5.2f} s "
          f"({r['signal_cpu'] / (rooms * messages) * 1e6:.0f} us a message)")
    print(f"  latency     p50 {statistics.median(lat):6.1f} ms   p95 {pct(lat, 0.95):6.1f} ms"
          f"   max {max(lat):6.1f} ms   (send -> peer receives, {len(lat)} messages)")
    print(f"  relay RSS   idle {r['rss_idle_kib'] / 1024:5.1f} MiB   all paired "
          f"{r['rss_paired_kib'] / 1024:5.1f} MiB ({per_room_kib:.0f} KiB a room)   after "
          f"signaling {r['rss_after_kib'] / 1024:5.1f} MiB   closed "
          f"{r['rss_closed_kib'] / 1024:5.1f} MiB")


async def main_async(args) -> list[dict]:
    relay = RelayProcess()
    results = []
    try:
        print(f"relay {relay.url} (pid {relay.proc.pid}), default limits\n", flush=True)
        if args.games:
            trace = game_trace()
            msgs = relay_messages(trace)
            for n, games in enumerate(args.games):
                r = await fallback_round(relay, games, msgs, f"g{n}")
                report_fallback(r, len(trace))
                results.append(r)
                print(flush=True)
        for n, rooms in enumerate(args.rooms):
            r = await one_round(relay, rooms, args.messages, f"r{n}")
            report(r)
            results.append({k: v for k, v in r.items() if k != "latency_ms"}
                           | {"latency_p50_ms": statistics.median(r["latency_ms"]),
                              "latency_p95_ms": pct(r["latency_ms"], 0.95)})
            print(flush=True)
    finally:
        relay.stop()
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="*", default=[50, 200, 1000])
    parser.add_argument("--games", type=int, nargs="*", default=[],
                        help="fallback games played at once through the relay (e.g. 1 50)")
    parser.add_argument("--messages", type=int, default=24,
                        help="signaling messages per room (a real pairing: ~10-30)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    if max(args.rooms + args.games, default=0) > 250 * ROOMS_PER_ADDRESS:
        raise SystemExit(f"at most {250 * ROOMS_PER_ADDRESS} rooms (127.0.0.2-251)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * max(args.rooms + args.games, default=0) + 100
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, need), hard))  # also the relay's
    started = time.monotonic()
    results = asyncio.run(main_async(args))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(f"({time.monotonic() - started:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
