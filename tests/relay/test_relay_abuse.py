"""The relay under abuse below the message level: a client that pings and never reads, half-
finished handshakes by the thousand, one IPv6 /64 posing as many addresses. The relay runs as
its own process (its memory and descriptors are measured); every client is on loopback, each
attacker from its own 127.x address, so the per-address bounds can tell them apart."""

from __future__ import annotations

import asyncio
import os
import re
import resource
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest
from websockets.asyncio.client import connect

from tests.conftest import REPO_ROOT
from trifront_relay import Limits
try:
    from trifront_relay.relay import address_key
except ImportError:
    address_key = None

from .test_relay import recv, run, send

MIB = 1024 * 1024


@contextmanager
def relay_process(open_files: int | None = None):
    """``python -m trifront_relay`` on a free port of 127.0.0.1, optionally with its open-files
    limit (soft and hard) set to `open_files`; yields (process, port)."""
    def limit():
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    proc = subprocess.Popen([sys.executable, "-m", "trifront_relay", "--host", "127.0.0.1",
                             "--port", "0", "--quiet"], cwd=REPO_ROOT, preexec_fn=limit,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        found = re.search(r":(\d+)/", line)
        assert found, (line, proc.stderr.read() if proc.poll() is not None else "")
        yield proc, int(found.group(1))
    finally:
        proc.kill()
        proc.wait(10)


def rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1)) * 1024


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def raw_websocket(port: int, source: str, rcvbuf: int | None = None) -> socket.socket:
    """A WebSocket opened by hand (no client library answering for us)."""
    s = socket.socket()
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              b"Sec-WebSocket-Version: 13\r\n\r\n")
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += s.recv(4096)
    assert reply.startswith(b"HTTP/1.1 101"), reply[:80]
    return s


def ping_frame(payload: bytes = b"p" * 125) -> bytes:
    mask = b"\x01\x02\x03\x04"
    return (bytes([0x89, 0x80 | len(payload)]) + mask
            + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


async def pair_up(port: int, source: str, room: str) -> float:
    """Seconds for two clients from `source` to join `room` and be paired."""
    t0 = time.monotonic()
    url = f"ws://127.0.0.1:{port}/"
    a = await asyncio.wait_for(connect(url, local_addr=(source, 0)), 5)
    b = await asyncio.wait_for(connect(url, local_addr=(source, 0)), 5)
    try:
        await send(a, t="join", room=room)
        await send(b, t="join", room=room)
        kinds = {(await recv(a, 5))["t"], (await recv(a, 5))["t"]}
        assert kinds == {"joined", "paired"}, kinds
        return time.monotonic() - t0
    finally:
        await a.close()
        await b.close()


def test_a_client_that_pings_and_never_reads_is_closed_and_the_relay_stays_small():
    """Ping frames, never a read: websockets answers each with a pong, which used to queue
    without bound (RSS 39 -> 274 MiB in 75 s). Now reading it stops once its output waits,
    and it is closed when that lasts (Limits.stall, 10 s); a good pair meanwhile is paired
    at once."""
    with relay_process() as (proc, port):
        sock = raw_websocket(port, "127.0.0.2", rcvbuf=4096)
        sock.setblocking(False)
        base = peak = rss(proc.pid)
        burst = ping_frame() * 512
        t0 = last = time.monotonic()
        closed_after, pairing, offset = None, None, 0
        while time.monotonic() - t0 < 25:
            try:
                # a send may take part of the burst: go on from there, frames stay whole
                offset = (offset + sock.send(burst[offset:])) % len(burst)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                closed_after = time.monotonic() - t0
                break
            if time.monotonic() - last > 0.2:
                last = time.monotonic()
                peak = max(peak, rss(proc.pid))
                if pairing is None and last - t0 > 3:
                    pairing = asyncio.run(pair_up(port, "127.0.0.3", "good pair"))
        sock.close()
        print(f"ping flood: relay RSS {base / MIB:.0f} -> peak {peak / MIB:.0f} MiB, "
              f"closed after {closed_after} s, a good pair paired in {pairing} s")
        assert closed_after is not None and closed_after < 20, "the flooder was never closed"
        assert peak - base < 24 * MIB, (base, peak)
        assert pairing is not None and pairing < 1.0


def test_half_open_handshakes_from_one_address_do_not_lock_others_out():
    """1,100 connections from one address that never finish their handshake, against a
    relay allowed 1,024 open files: they used to take every descriptor (other clients timed
    out, EMFILE). Now one address gets Limits.handshakes_per_address of them, the rest are
    closed as they come, and others are paired at once."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1400:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    with relay_process(open_files=1024) as (proc, port):
        held = []
        try:
            for _ in range(1100):
                s = socket.socket()
                s.settimeout(2)
                s.bind(("127.0.0.2", 0))
                try:
                    s.connect(("127.0.0.1", port))
                except OSError:
                    s.close()
                    continue
                held.append(s)
            time.sleep(0.5)
            fds = descriptors(proc.pid)
            took = asyncio.run(pair_up(port, "127.0.0.3", "others"))
            print(f"half-open: {len(held)} held, relay descriptors {fds}, a pair in {took:.3f} s")
            assert fds < 1024 - 32, fds
            assert took < 1.0
        finally:
            for s in held:
                s.close()


def test_half_open_handshakes_from_many_addresses_leave_descriptors_and_open_games():
    """Many addresses, each under its own bound, together past Limits.handshakes: the total
    holds, the relay keeps descriptors in reserve, and a pair already playing goes on."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1400:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    with relay_process(open_files=1024) as (proc, port):
        async def body():
            url = f"ws://127.0.0.1:{port}/"
            a = await connect(url, local_addr=("127.0.0.3", 0))
            b = await connect(url, local_addr=("127.0.0.3", 0))
            for ws in (a, b):
                await send(ws, t="join", room="playing")
                await recv(ws)
            await recv(a)
            await recv(b)
            held = []
            for i in range(60):
                for _ in range(15):
                    s = socket.socket()
                    s.settimeout(2)
                    s.bind((f"127.0.1.{i + 1}", 0))
                    try:
                        s.connect(("127.0.0.1", port))
                        held.append(s)
                    except OSError:
                        s.close()
            await asyncio.sleep(0.5)
            fds = descriptors(proc.pid)
            await send(a, t="signal", data="still here")
            got = await recv(b, 5)
            for s in held:
                s.close()
            await a.close()
            await b.close()
            return fds, got
        fds, got = asyncio.run(body())
        print(f"half-open from 60 addresses: relay descriptors {fds}")
        assert got == {"t": "signal", "data": "still here"}
        assert fds <= (1024 - Limits.fd_reserve) // 4 + 32, fds    # the handshake cap
        assert asyncio.run(pair_up(port, "127.0.0.4", "after")) < 1.0


def test_sockets_that_never_finish_and_come_back_do_not_keep_new_clients_out():
    """16 addresses x 16 sockets that send nothing, each opened again the moment the relay
    drops it (a fixed table of opening handshakes, full, used to turn every newcomer away):
    a newcomer now takes the place of the oldest handshake of the heaviest address, and a
    socket silent for Limits.first_byte is closed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1400:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))

    async def body(port):
        stop = asyncio.Event()

        async def hold(source):
            while not stop.is_set():
                try:
                    _r, w = await asyncio.open_connection("127.0.0.1", port,
                                                          local_addr=(source, 0))
                except OSError:
                    await asyncio.sleep(0.01)
                    continue
                try:
                    await _r.read(1)          # until the relay lets go of it
                except OSError:
                    pass
                w.close()

        holders = [asyncio.ensure_future(hold(f"127.0.1.{a}")) for a in range(1, 17)
                   for _ in range(16)]
        await asyncio.sleep(1.0)
        ok = 0
        for _ in range(20):
            try:
                ws = await asyncio.wait_for(
                    connect(f"ws://127.0.0.1:{port}/", local_addr=("127.0.2.1", 0)), 2)
                await send(ws, t="ping")
                ok += (await recv(ws, 2)) == {"t": "pong"}
                await ws.close()
            except (OSError, asyncio.TimeoutError, Exception):  # noqa: BLE001 - a failure
                pass
            await asyncio.sleep(0.2)
        stop.set()
        for h in holders:
            h.cancel()
        return ok

    with relay_process(open_files=1024) as (proc, port):
        ok = asyncio.run(body(port))
        print(f"256 sockets reopened as they close: {ok}/20 new clients served")
        assert ok >= 18, ok


@pytest.mark.parametrize("a,b,same", [
    ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", True),
    ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
    ("::ffff:198.51.100.7", "198.51.100.7", True),
    ("198.51.100.7", "198.51.100.8", False),
    ("fe80::1%eth0", "fe80::2", True),
])
def test_an_ipv6_address_counts_as_its_64(a, b, same):
    assert (address_key(a) == address_key(b)) == same


def test_one_ipv6_64_behind_a_trusted_proxy_shares_one_bound():
    """Many addresses of one /64 are one client for the per-address bounds."""
    async def body(url, relay):
        socks = []
        for i in range(3):
            socks.append(await connect(url, additional_headers={
                "X-Forwarded-For": f"2001:db8:5:6::{i + 1:x}"}))
        got = await recv(socks[-1])
        assert got["t"] == "error" and "connections" in got["error"]
        other = await connect(url, additional_headers={"X-Forwarded-For": "2001:db8:5:7::1"})
        await send(other, t="join", room="r")
        assert (await recv(other))["t"] == "joined"
        for ws in (*socks, other):
            await ws.close()
    run(body, Limits(clients_per_address=2), trusted_proxies=("127.0.0.1",))


def test_relay_counts_return_to_zero_after_clients_come_and_go():
    """The handshake and connection counts are given back by every way a connection ends."""
    async def body(url, relay):
        port = int(url.rsplit(":", 1)[1].strip("/"))
        ws = await connect(url)
        await send(ws, t="join", room="x")
        await recv(ws)
        half = socket.create_connection(("127.0.0.1", port))
        junk = socket.create_connection(("127.0.0.1", port))
        junk.sendall(b"NOT HTTP\r\n\r\n")
        await asyncio.sleep(0.2)
        assert relay.connections == 3 and relay.opening_total == 2
        await ws.close()
        half.close()
        junk.close()
        await asyncio.sleep(0.3)
        assert relay.connections == 0 and relay.opening_total == 0
        assert relay.openers == {} and relay.prefixes == {}
    run(body)
