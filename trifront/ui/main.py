"""The page's entry point on the main thread (PLACEHOLDER: the UI engineer replaces this).

It shows the hand-over contract that index.html and the browser tests rely on:
1. render into `#app`;
2. hide `#loading`, show `#app`, then set `#app[data-ready="1"]` (the boot marker);
3. talk to the "cpu" worker, and set `#app[data-cpu]` to "ready" (or "failed").
See docs/TESTING.md.
"""

import json
import sys

from pyscript import web, workers

app = web.page["app"]
status = web.p("Waiting for the CPU player…", id="cpu-status")
app.append(
    web.h1("TriFront"),
    web.p(f"Python {sys.version.split()[0]} is running in your browser.", id="python-status"),
    status,
)
web.page["loading"].hidden = True
app.hidden = False
app.setAttribute("data-ready", "1")

try:
    cpu = await workers["cpu"]  # noqa: F704 (PyScript runs this file with top-level await)
    answer = json.loads(await cpu.ping(json.dumps({"hello": "main"})))  # noqa: F704
except Exception as exc:
    status.textContent = f"The CPU player did not start: {exc}"
    app.setAttribute("data-cpu", "failed")
    raise
status.textContent = (
    f"CPU player ready (worker Python {answer['python']}, "
    f"{len(answer['modules'])} trifront modules)."
)
app.setAttribute("data-cpu", "ready")
