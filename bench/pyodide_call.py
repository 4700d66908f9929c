"""Call a function of a bench script inside Pyodide under Node (bench/pyodide_run.mjs, npm
`pyodide` from scripts/setup), with this repository mounted, and get its JSON result; or
inside the browser itself (`call_in_chromium`: the page's vendored Pyodide in headless
Debian Chromium, the repository served on 127.0.0.1).

    from pyodide_call import call_in_pyodide
    figures = call_in_pyodide("engine_speed.py", "run_all", 5.0)   # None if it could not
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _calling(script: str, function: str, args: tuple, last: str,
             awaited: bool = False) -> str:
    """Python that runs bench/`script` from the repository mounted at /trifront_root and
    ends with ``last`` around the JSON of `function(*args)` (awaited: a coroutine's)."""
    name = os.path.splitext(script)[0]
    call = f"g[{function!r}](*{list(args)!r})"
    result = f"json.dumps({'await ' if awaited else ''}{call})"
    return ("import json, sys\n"
            "sys.path.insert(0, '/trifront_root')\n"
            f"path = '/trifront_root/bench/{script}'\n"
            f"g = {{'__file__': path, '__name__': {name!r}}}\n"
            "exec(compile(open(path).read(), path, 'exec'), g)\n"
            + last.format(result) + "\n")


def call_in_pyodide(script: str, function: str, *args):
    """`function(*args)` of bench/`script` run in Pyodide; its result (JSON-ready), or None
    with a note printed when Node or Pyodide is missing or the run failed."""
    node = shutil.which("node")
    if node is None or not os.path.isdir(os.path.join(ROOT, "node_modules", "pyodide")):
        print("(Pyodide: skipped; needs node and node_modules/pyodide from scripts/setup)")
        return None
    code = _calling(script, function, args, "print('RESULT ' + {})")
    proc = subprocess.run([node, os.path.join(ROOT, "bench", "pyodide_run.mjs"), code],
                          capture_output=True, text=True, cwd=ROOT)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    print("(Pyodide run failed)\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
    return None


#: the Pyodide of the page itself (scripts/setup vendors it), loaded in headless Chromium
CHROMIUM_RUN = """async ([files, code]) => {
  const { loadPyodide } = await import('/web/vendor/pyodide/pyodide.mjs');
  const py = await loadPyodide({ indexURL: '/web/vendor/pyodide/' });
  for (const f of files) {
    const text = await (await fetch('/' + f)).text();
    const dir = ('/trifront_root/' + f).split('/').slice(0, -1).join('/');
    py.FS.mkdirTree(dir);
    py.FS.writeFile('/trifront_root/' + f, text);
  }
  return py.runPython(code);
}"""
#: the same for a coroutine function (WebCrypto's work is awaited: signing.py)
CHROMIUM_RUN_ASYNC = CHROMIUM_RUN.replace("py.runPython(code)", "await py.runPythonAsync(code)")


def call_in_chromium(script: str, function: str, *args, awaited: bool = False):
    """`function(*args)` of bench/`script` run in the page's own Pyodide (web/vendor/) in
    Debian's headless Chromium, the browser itself; its result, or None with a note printed
    when the browser, Playwright or the vendored runtime is missing."""
    chromium = os.environ.get("TRIFRONT_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium) or \
            not os.path.exists(os.path.join(ROOT, "web", "vendor", "pyodide", "pyodide.mjs")):
        print("(Chromium: skipped; needs /usr/bin/chromium and web/vendor/ from scripts/setup)")
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("(Chromium: skipped; needs Playwright from scripts/setup)")
        return None
    import sys
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "browser"))
    import serve
    from conftest import CHROMIUM_ARGS
    files = [os.path.relpath(os.path.join(d, f), ROOT)
             for d, _dirs, names in os.walk(os.path.join(ROOT, "trifront"))
             for f in names if f.endswith(".py")] + [f"bench/{script}"]
    code = _calling(script, function, args, "{}", awaited)   # its last value is returned
    srv = serve.serve_in_thread(root=ROOT, port=0, quiet=True)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                         args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(srv.url + "web/online.json")     # any page of the same origin
                run = CHROMIUM_RUN_ASYNC if awaited else CHROMIUM_RUN
                return json.loads(page.evaluate(run, [files, code]))
            finally:
                browser.close()
    except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not crash
        print(f"(Chromium run failed: {exc!r})")
        return None
    finally:
        srv.shutdown()
        srv.server_close()
