"""The page's path to its menu imports no more than it needs.

In Pyodide every module is run (and, from the repository, compiled) at each page load, so an
import on the way to the menu costs start-up time (bench/startup.py): urllib.parse (+ ipaddress) was ~0.3-0.5 s,
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
                       "trifront.net.sealed_match", "trifront.net.sealed",
                       "trifront.net.fairness",
                       # screens no first screen draws: after the menu (screens.LATER)
                       "trifront.ui.screens.results", "trifront.ui.screens.replay",
                       "trifront.ui.screens.review", "trifront.ui.screens.social",
                       "trifront.ui.screens.tutorial", "trifront.ui.screens.watch",
                       "trifront.ui.review", "trifront.ui.tutorial", "trifront.ui.tutorial_render",
                       "trifront.ui.replay_viewer", "trifront.ui.watching")

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


FIRST_USE = """
import sys
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient
from tests.ui.test_app import Page
page = Page()
app = App(page.mount, CpuClient(None), seed=3, cpu_delay=0, log_error=page.errors.append)
app.render()
assert page.tree.find("#btn-tutorial") is not None
assert "trifront.ui.screens.tutorial" not in sys.modules
app.dispatch("tutorial")                    # its handler is found by loading the later screens
assert page.tree.find("#coach-title") is not None, page.tree.text()[:300]
assert not page.errors, page.errors
print("ok")
"""


def test_a_later_screen_loads_at_its_first_use():
    """A click that needs a screen not loaded yet (main.py loads them just after the menu is
    painted; a click can come first) loads it and works."""
    out = subprocess.run([sys.executable, "-c", FIRST_USE], cwd=REPO_ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]


def test_the_strengths_named_in_the_ui_are_the_ai_packages():
    from trifront.ai.cpu import STRENGTHS as AI
    from trifront.ui.cpu import STRENGTHS as UI
    assert tuple(AI) == UI


AI_IMPORT = """
import importlib, json, sys
from trifront.ui.cpu import AI_MODULES
pulled = []
for name in AI_MODULES:
    before = set(sys.modules)
    importlib.import_module(name)
    pulled.append(sorted(m for m in set(sys.modules) - before if m.startswith("trifront.ai")))
print(json.dumps(pulled))
"""


def test_the_page_imports_the_ai_package_one_module_a_step():
    """trifront.ui.cpu.AI_MODULES (the page imports them one a turn of its event loop) is
    every module of trifront.ai.cpu's imports, each after what it needs: each import brings
    that one module alone."""
    out = subprocess.run([sys.executable, "-c", AI_IMPORT], cwd=REPO_ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    from trifront.ui.cpu import AI_MODULES
    assert json.loads(out.stdout) == [[name] for name in AI_MODULES]
