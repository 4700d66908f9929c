// Run a snippet of Python in Pyodide under Node, with this repository mounted at
// /trifront_root. Used by the benchmarks under bench/.
//   node bench/pyodide_run.mjs "print('hello')"
import { loadPyodide } from "pyodide";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pyodide = await loadPyodide({ stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
pyodide.FS.mkdir("/trifront_root");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/trifront_root");
try {
  await pyodide.runPythonAsync(process.argv[2]);
} catch (e) {
  console.error(String(e.message || e).slice(-4000));  // the Python traceback, not the bundle
  process.exit(1);
}
