// Makes the Pyodide snapshot web/pyodide-snapshot.mjs starts from, off the page's thread
// (~1.5 s of one core and ~60 MiB while it runs). Started by window.tfSaveSnapshot (in that
// module); posts {ok: true, bytes} or {ok: false, error} and is then terminated by the page.
import { saveSnapshot } from "./pyodide-snapshot.mjs";

saveSnapshot().then(
  (bytes) => postMessage({ ok: true, bytes }),
  (error) => postMessage({ ok: false, error: String(error) }),
);
