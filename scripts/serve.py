#!/usr/bin/env python3
"""A tiny static file server for TriFront (standard library only).

Serves a folder on 127.0.0.1 so the page, `pyscript.toml`, the `trifront/` sources and the
vendored runtime in `web/vendor/` load from one origin: the built site (`scripts/play`), or the
repository root (`scripts/play --source`; the browser tests: `tests/browser/conftest.py`
imports `make_server`).

    python3 scripts/serve.py [--port 8000] [--root DIR] [--prefix /sub/path/]

What it adds to `http.server`: explicit MIME types for `.mjs`, `.wasm`, `.toml`, `.py`,
`.webmanifest` (so a machine's own mime.types cannot break the page), `Cache-Control:
no-cache` (an edited `.py` is picked up on reload), a `sw.js` that retires a built site's
service worker when the root has none (the repository served from its sources), an optional
URL prefix (to check that the page works under a sub-path, as on GitHub Pages),
`--relay-port` (web/online.json tells the page where scripts/play's relay listens) and a
clear one-line address on start.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

EXTRA_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".map": "application/json",
}


# Served as sw.js by a root without one (the repository itself, `scripts/play --source`): a
# browser that ran a build at this same address (`scripts/play`) keeps its service worker, which
# would go on answering every request with the build's cached files. The browser checks sw.js
# at each visit; this version takes over, drops the build's caches (never the Pyodide snapshot)
# and itself, and reloads the open pages, which then load from this server.
RETIRE_SW = """// scripts/serve.py: no service worker here (a site served from its sources)
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const key of await caches.keys()) if (key.startsWith("trifront-")) await caches.delete(key);
  await self.registration.unregister();
  for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
})()));
"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files from `directory`, optionally only below the URL `prefix`."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **EXTRA_TYPES}  # noqa: RUF012 - the base class's own name for it

    def __init__(self, *args, directory: str, prefix: str = "/", quiet: bool = False,
                 relay_port: int | None = None, **kwargs):
        self.prefix = prefix
        self.quiet = quiet
        self.relay_port = relay_port
        super().__init__(*args, directory=directory, **kwargs)

    def _strip_prefix(self) -> bool:
        if self.prefix == "/":
            return True
        if self.path == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not self.path.startswith(self.prefix):
            self.send_error(404, "outside the served prefix")
            return False
        self.path = "/" + self.path[len(self.prefix):]
        return True

    def _hidden(self) -> bool:
        """A path through a dot-folder (.git, .venv, ...): 404. With HOST=0.0.0.0 the
        repository is on the network, and its history and virtualenv are not the site."""
        from urllib.parse import unquote, urlsplit
        parts = unquote(urlsplit(self.path).path).split("/")
        if any(part.startswith(".") for part in parts if part):
            self.send_error(404, "not served")
            return True
        return False

    def list_directory(self, path):
        """No directory listings: only the site's files are served."""
        self.send_error(404, "no directory listings")
        return None

    def do_GET(self):  # noqa: N802 (http.server naming)
        if not self._strip_prefix() or self._hidden():
            return
        if self.relay_port and self.path.split("?")[0] == "/web/online.json":
            self._online_json()
            return
        if self.path.split("?")[0] == "/sw.js" and not (Path(self.directory) / "sw.js").is_file():
            self._send(RETIRE_SW.encode(), "text/javascript")
            return
        super().do_GET()

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _online_json(self) -> None:
        """web/online.json with ``relay_port`` set: the page then finds the relay that
        scripts/play started on RELAY_PORT (trifront.net.signaling.default_relay)."""
        try:
            config = json.loads((Path(self.directory) / "web" / "online.json").read_text())
        except (OSError, ValueError):
            config = {}
        config["relay_port"] = self.relay_port
        self._send(json.dumps(config, indent=2).encode(), "application/json")

    def do_HEAD(self):  # noqa: N802
        if self._strip_prefix() and not self._hidden():
            super().do_HEAD()

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 (signature of the base class)
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address) -> None:
        """A browser that drops a download it no longer needs (a page closed or reloaded
        mid-file) is not an error worth a traceback; anything else still prints one."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)

    @property
    def origin(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return self.origin + self.prefix


def make_server(root: os.PathLike | str = ROOT, host: str = "127.0.0.1", port: int = 0,
                prefix: str = "/", quiet: bool = False, relay_port: int | None = None) -> Server:
    """Bind (port 0 = a free port) and return the server; `server.url` is its address.
    ``relay_port``: tell the page where our relay listens (web/online.json's relay_port)."""
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError(f"prefix must start and end with '/': {prefix!r}")
    handler = functools.partial(Handler, directory=str(root), prefix=prefix, quiet=quiet,
                                relay_port=relay_port)
    server = Server((host, port), handler)
    server.prefix = prefix
    return server


def serve_in_thread(**kwargs) -> Server:
    """Start a server in a daemon thread; stop it with `server.shutdown(); server.server_close()`."""
    server = make_server(**kwargs)
    threading.Thread(target=server.serve_forever, name="trifront-static", daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--prefix", default="/")
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    parser.add_argument("--relay-port", type=int, default=None,
                        help="the port our relay listens on (scripts/play's RELAY_PORT); "
                             "served to the page in web/online.json")
    args = parser.parse_args(argv)
    try:
        server = make_server(args.root, args.host, args.port, args.prefix, args.quiet,
                             args.relay_port)
    except OSError as exc:
        print(f"Cannot listen on {args.host}:{args.port}: {exc.strerror or exc}. "
              f"Try another port, e.g. PORT=8001.", file=sys.stderr)
        return 1
    print(f"\nTriFront is running at {server.url}\n(press Ctrl+C to stop)\n", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
