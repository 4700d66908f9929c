// Compile Python sources to bytecode with the vendored Pyodide itself (so the .pyc matches the
// browser's Python exactly), for scripts/build:
//   node scripts/pyc_compile.mjs DIR [EXCLUDE_REGEX]
// writes DIR/**/__pycache__/*.cpython-3XX.pyc next to every .py under DIR (unchecked-hash pycs:
// Python then loads them without comparing the source's timestamp, which Pyodide's [files]
// loading does not keep). A file that does not compile on its own (main.py: top-level await)
// gets no .pyc and keeps loading from source; EXCLUDE_REGEX skips files on purpose. Prints a
// JSON line last ({"ok": false} when some file did not compile).
import { loadPyodide } from "pyodide";

const [dir, exclude = ""] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.mkdir("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: dir }, "/src");
pyodide.globals.set("exclude", exclude);
const out = await pyodide.runPythonAsync(`
import compileall, json, py_compile, re, sys
ok = compileall.compile_dir("/src", quiet=1, rx=re.compile(exclude) if exclude else None,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
json.dumps({"ok": bool(ok), "tag": sys.implementation.cache_tag})
`);
console.log(out);
