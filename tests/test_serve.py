"""scripts/serve.py, the development server: the site's files, not the repository's insides
(HOST=0.0.0.0 puts it on the network)."""

from __future__ import annotations

import sys
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
