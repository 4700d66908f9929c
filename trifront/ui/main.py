"""The page's entry point on the main thread (index.html runs this file).

The contract with index.html and the browser tests (docs/TESTING.md):
1. render into ``#app``; 2. hide ``#loading``, show ``#app``, set ``#app[data-ready="1"]``
(the boot marker); 3. connect to the "cpu" worker in the background and set
``#app[data-cpu]`` to "ready" or "failed" (then the CPU runs on this thread).

URL parameters (for reproducible games and tests): ``?seed=N`` fixes every random choice of
the page; ``?cpu_delay=MS`` is the least time the CPU appears to think (default 600).
"""

import sys

from js import URLSearchParams, console, location
from pyscript import web, workers

from trifront.ui import dom
from trifront.ui.app import App
from trifront.ui.cpu import CpuClient


def _param(name, default, kind):
    try:
        value = URLSearchParams.new(location.search).get(name)
        return kind(value) if value not in (None, "") else default
    except Exception:  # noqa: BLE001 - a bad parameter is ignored
        return default


app_el = web.page["app"]
status = {"python": f"Python {sys.version.split()[0]} is running in your browser.",
          "cpu": "Waiting for the CPU player…", "cpu_state": "connecting"}
controller = None


def on_cpu_status(state, text):
    status["cpu"], status["cpu_state"] = text, state
    if state == "failed":
        console.warn(f"TriFront: {text}")
        status["cpu"] = "The CPU plays from this page (its helper thread is unavailable)."
    app_el.setAttribute("data-cpu", state)
    if controller is not None and controller.screen == "menu":
        controller.render()


async def connect():
    return await workers["cpu"]


def log_error(text):
    console.error(text)


def on_dom_error(exc):
    console.error(f"TriFront event handler failed: {exc!r}")


cpu = CpuClient(connect, on_status=on_cpu_status)
controller = App(dom.Mount("app"), cpu, seed=_param("seed", None, int),
                 cpu_delay=_param("cpu_delay", 600, float) / 1000, log_error=log_error,
                 status=status)
dom.listen("app", controller.dispatch, on_dom_error)
controller.render()
web.page["loading"].hidden = True
app_el.hidden = False
app_el.setAttribute("data-ready", "1")
cpu.start()
