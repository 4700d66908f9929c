"""The CPU player's web worker (PyScript named worker "cpu", created by trifront/ui/main.py
once the menu is shown: not declared in index.html, so its start-up does not delay the page's).

It runs in its own Pyodide, so the CPU can think without freezing the page. The main thread
awaits what `__export__` lists (see trifront/ui/cpu.py):

    from pyscript import create_named_worker
    cpu = await create_named_worker(src="./trifront/ui/cpu_worker.py", name="cpu",
                                    config="./pyscript.toml")
    action_json = await cpu.choose(json.dumps(view), seed, "easy")

Without cross-origin isolation (GitHub Pages) every call is asynchronous and arguments and
results must be structured-clone-able, so everything crosses as JSON text or plain numbers.
The CPU receives only a player view (RULES.md R7), never the game state.

``choose`` and ``hint`` also say how long the worker itself computed (``"ms"``: wall time in
the worker, not counting the message round trip), and ``choose`` how many search iterations
it ran (``"its"``), which the page records (CpuClient.think_ms, think_its) for
bench/think_time_browser.py.
"""

import json
import sys
import time

from trifront.ai import cpu


def ping(message_json: str) -> str:
    """Echo `message_json` back with the worker's Python version, as a JSON string."""
    return json.dumps({"pong": json.loads(message_json), "python": sys.version.split()[0],
                       "strengths": list(cpu.STRENGTHS)})


def choose(view_json: str, seed: int, strength: str = "easy") -> str:
    """The CPU's move for `view_json` as JSON text {"action": ActionJSON (one of the view's
    legal actions), "ms": milliseconds this worker computed, "its": search iterations run
    (null for Easy), "belief": what it knew and guessed (trifront.ai.review.belief)}."""
    start = time.perf_counter()
    report = cpu.choose_report(view_json, int(seed), strength)
    return json.dumps({"action": report["action"], "its": report["iterations"],
                       "belief": report["belief"],
                       "ms": round((time.perf_counter() - start) * 1000, 1)})


def hint(view_json: str, seed: int, strength: str = "normal") -> str:
    """A suggestion for the player of `view_json` (the same search, on the human's view):
    JSON text {"action": ActionJSON (one of view["legal"]), "win": 0..1, "ms": ...}."""
    start = time.perf_counter()
    out = json.loads(cpu.hint(view_json, int(seed), strength))
    out["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return json.dumps(out)


def review(view_json: str, seed: int, played_json: str = "", state_json: str = "") -> str:
    """One bounded step of one move of a game's review (trifront.ai.cpu.review_step) on that
    player's view: JSON text {"done": false, "state"} (the page asks again with that state) or
    {"done": true, "answer": {"estimate", "best", "played_estimate", "error", ...}}, and
    "ms"."""
    start = time.perf_counter()
    out = json.loads(cpu.review_step(view_json, int(seed), played_json or None,
                                     state_json or None))
    out["ms"] = round((time.perf_counter() - start) * 1000, 1)
    return json.dumps(out)


def draft(seed: int, strength: str = "hard") -> str:
    """The CPU's Draft picks (RULES.md R2.3) at `strength` as JSON text {"A": id, ..., "D": id}."""
    return cpu.draft(int(seed), str(strength))


__export__ = ["ping", "choose", "hint", "review", "draft"]
