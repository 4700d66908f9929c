"""Call a function of a bench script inside Pyodide under Node (bench/pyodide_run.mjs, npm
`pyodide` from scripts/setup), with this repository mounted, and get its JSON result.

    from pyodide_call import call_in_pyodide
    figures = call_in_pyodide("engine_speed.py", "run_all", 5.0)   # None if it could not
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call_in_pyodide(script: str, function: str, *args):
    """`function(*args)` of bench/`script` run in Pyodide; its result (JSON-ready), or None
    with a note printed when Node or Pyodide is missing or the run failed."""
    node = shutil.which("node")
    if node is None or not os.path.isdir(os.path.join(ROOT, "node_modules", "pyodide")):
        print("(Pyodide: skipped; needs node and node_modules/pyodide from scripts/setup)")
        return None
    name = os.path.splitext(script)[0]
    code = ("import json, sys\n"
            "sys.path.insert(0, '/trifront_root')\n"
            f"path = '/trifront_root/bench/{script}'\n"
            f"g = {{'__file__': path, '__name__': {name!r}}}\n"
            "exec(compile(open(path).read(), path, 'exec'), g)\n"
            f"print('RESULT ' + json.dumps(g[{function!r}](*{list(args)!r})))\n")
    proc = subprocess.run([node, os.path.join(ROOT, "bench", "pyodide_run.mjs"), code],
                          capture_output=True, text=True, cwd=ROOT)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    print("(Pyodide run failed)\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
    return None
