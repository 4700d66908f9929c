"""python -m trifront_relay [--host 127.0.0.1] [--port 8765] [--room-idle SECONDS]
                           [--trust-proxy ADDRESS ...]"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from .relay import Limits, Relay


#: below this many open files the relay warns at start (docs/ONLINE.md, "Running a relay")
MIN_OPEN_FILES = 4096


def raise_open_files_limit() -> int | None:
    """Raise the soft open-files limit to the hard one (what the system lets this process
    have without privileges) and return it; None where there is no such limit."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return None if soft == resource.RLIM_INFINITY else soft


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="TriFront relay: pairs two players by a room word")
    parser.add_argument("--host", default=os.environ.get("RELAY_HOST", "127.0.0.1"),
                        help="address to listen on (0.0.0.0 for a LAN or a public host)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("RELAY_PORT", "8765")))
    parser.add_argument("--room-idle", type=float, default=Limits.room_idle,
                        help="seconds without traffic before a room expires")
    parser.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                        help="a TLS proxy in front of the relay (e.g. 127.0.0.1): connections "
                             "from it count against the X-Forwarded-For address it adds")
    parser.add_argument("--quiet", action="store_true",
                        help="log warnings only (the 'listening on' line, which scripts "
                             "wait for, is still printed)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="[relay] %(message)s")
    relay = Relay(Limits(room_idle=args.room_idle), trusted_proxies=tuple(args.trust_proxy))
    fds = raise_open_files_limit()
    if fds is not None and fds < MIN_OPEN_FILES:
        print(f"relay: only {fds} open files allowed (ulimit -n); each client takes one: "
              f"raise it for a public relay (docs/ONLINE.md)", file=sys.stderr)

    def ready(server):
        ports = sorted({s.getsockname()[1] for s in server.sockets})
        print(f"TriFront relay listening on ws://{args.host}:{ports[0]}/", flush=True)

    try:
        asyncio.run(relay.run(args.host, args.port, ready))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(f"relay: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
