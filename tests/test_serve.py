"""scripts/serve.py, the development server: the site's files, not the repository's insides
(HOST=0.0.0.0 puts it on the network)."""

from __future__ import annotations

import socket
import struct
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import serve  # noqa: E402


@pytest.fixture(scope="module")
def server():
    srv = serve.serve_in_thread(root=str(REPO_ROOT), host="127.0.0.1", port=0, prefix="/",
                                quiet=True)
    yield srv
    srv.shutdown()
    srv.server_close()


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


def test_the_page_and_its_files_are_served(server):
    assert status(server.url + "index.html") == 200
    assert status(server.url + "pyscript.toml") == 200
    assert status(server.url + "trifront/game.py") == 200


@pytest.mark.parametrize("path", [".git/HEAD", "%2egit/HEAD", ".venv/pyvenv.cfg",
                                  "trifront/../.git/config", ".gitignore"])
def test_dot_folders_are_not_served(server, path):
    assert status(server.url + path) == 404


def test_no_directory_listings(server):
    assert status(server.url + "trifront/") == 404


def test_a_download_the_browser_drops_prints_no_traceback(tmp_path, capfd):
    (tmp_path / "big.bin").write_bytes(b"x" * (32 << 20))    # more than the socket buffers
    srv = serve.serve_in_thread(root=str(tmp_path), port=0, quiet=True)
    try:
        with socket.create_connection(srv.server_address[:2], timeout=10) as sock:
            sock.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.0 200")
            # close with a reset (linger 0), as a browser tab that goes away does
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(1)                        # the server's write fails after the reset
    finally:
        srv.shutdown()
        srv.server_close()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err, err


def test_a_folder_without_a_service_worker_retires_a_build_s(server, tmp_path):
    """scripts/play serves the build (with its sw.js) and `scripts/play --source` the
    repository at the same address: there /sw.js is a service worker that drops the build's
    caches and itself, so the build's cached files stop answering for the repository's page.
    A built site's own sw.js is served as it is."""
    with urllib.request.urlopen(server.url + "sw.js", timeout=10) as response:
        body = response.read().decode()
        assert response.headers["Content-Type"].startswith("text/javascript")
    assert "unregister()" in body and 'startsWith("trifront-")' in body
    (tmp_path / "sw.js").write_text("// the build's\n")
    built = serve.serve_in_thread(root=str(tmp_path), port=0, quiet=True)
    try:
        with urllib.request.urlopen(built.url + "sw.js", timeout=10) as response:
            assert response.read().decode() == "// the build's\n"
    finally:
        built.shutdown()
        built.server_close()
