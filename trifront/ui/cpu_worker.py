"""The CPU player's web worker (PyScript named worker "cpu", declared in index.html).

It runs in its own Pyodide, so the CPU can think without freezing the page. The main thread
calls what `__export__` lists:

    from pyscript import workers
    cpu = await workers["cpu"]                  # resolves once this file has run
    answer = json.loads(await cpu.ping(json.dumps({"hello": "main"})))

Without cross-origin isolation (GitHub Pages) every call is asynchronous, arguments and
results must be structured-clone-able: pass JSON strings (or plain str/int/float/bool), and
this worker cannot touch `window`/`document`. It has the whole `trifront` package, because it
loads the same pyscript.toml [files] as the main thread.

This is the placeholder that proves the mechanics; the AI's functions go here (export them).
"""

import json
import pkgutil
import sys

import trifront


def ping(message_json: str) -> str:
    """Echo `message_json` back with facts about this worker, as a JSON string."""
    return json.dumps({
        "pong": json.loads(message_json),
        "python": sys.version.split()[0],
        "modules": sorted(m.name for m in pkgutil.iter_modules(trifront.__path__)),
    })


__export__ = ["ping"]
