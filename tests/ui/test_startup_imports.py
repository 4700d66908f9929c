"""The page's path to its menu imports no more than it needs.

In Pyodide every module is compiled from source at each page load, so an import on the way to
the menu costs start-up time (bench/startup.py): urllib.parse (+ ipaddress) was ~0.3-0.5 s,
pyodide.http pulls it in, the AI package ~0.05-0.1 s, the online match code (trifront.net,
hashlib, secrets) ~0.1 s. This runs main.py's imports and the
first menu render on CPython in a fresh interpreter and checks none of them was loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import REPO_ROOT

NOT_BEFORE_THE_MENU = ("urllib.parse", "ipaddress", "pyodide.http", "trifront.ai",
                       "trifront.ai.cpu", "trifront.net.link", "trifront.net.nostr_link",
                       "trifront.ui.online", "trifront.net.match", "trifront.net.session",
                       "trifront.net.host", "trifront.net.guest", "trifront.net.fairness")

PROGRAM = """
import json, sys
import trifront.net.signaling, trifront.ui.cpu
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient
trifront.net.signaling.default_signal({}, "user.github.io")
trifront.net.signaling.default_signal({}, "192.168.1.20")
shown = []
app = App(shown.append, CpuClient(None), seed=1)
app.render()
print(json.dumps({"modules": sorted(sys.modules), "rendered": len(shown)}))
"""


def test_menu_path_skips_heavy_imports():
    out = subprocess.run([sys.executable, "-c", PROGRAM], cwd=REPO_ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["rendered"] >= 1
    loaded = [m for m in NOT_BEFORE_THE_MENU if m in result["modules"]]
    assert not loaded, f"imported on the way to the menu: {loaded}"


def test_the_strengths_named_in_the_ui_are_the_ai_packages():
    from trifront.ai.cpu import STRENGTHS as AI
    from trifront.ui.cpu import STRENGTHS as UI
    assert tuple(AI) == UI
