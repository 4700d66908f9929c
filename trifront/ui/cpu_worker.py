"""The CPU player's web worker (PyScript named worker "cpu", declared in index.html).

It runs in its own Pyodide, so the CPU can think without freezing the page. The main thread
awaits what `__export__` lists (see trifront/ui/cpu.py):

    from pyscript import workers
    cpu = await workers["cpu"]
    action_json = await cpu.choose(json.dumps(view), seed, "easy")

Without cross-origin isolation (GitHub Pages) every call is asynchronous and arguments and
results must be structured-clone-able, so everything crosses as JSON text or plain numbers.
The CPU receives only a player view (RULES.md R7), never the game state.
"""

import json
import sys

from trifront.ai import cpu


def ping(message_json: str) -> str:
    """Echo `message_json` back with the worker's Python version, as a JSON string."""
    return json.dumps({"pong": json.loads(message_json), "python": sys.version.split()[0],
                       "strengths": list(cpu.STRENGTHS)})


def choose(view_json: str, seed: int, strength: str = "easy") -> str:
    """The CPU's action (JSON text, one of the view's legal actions) for `view_json`."""
    return cpu.choose(view_json, int(seed), strength)


def draft(seed: int) -> str:
    """The CPU's Draft picks (RULES.md R2.3) as JSON text {"A": id, ..., "D": id}."""
    return cpu.draft(int(seed))


__export__ = ["ping", "choose", "draft"]
