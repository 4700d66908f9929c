// Pyodide, started from a memory snapshot of its own booted interpreter when this browser has
// one. pyscript.toml's `interpreter` names this module instead of the vendored pyodide.mjs, so
// the page and the CPU worker both start through it. PyScript imports the module and calls its
// `loadPyodide` (and reads `version`); everything else is the vendored module's own.
//
// Why: most of a start is the runtime booting Python ("Loading interpreter" -> "Loaded
// interpreter", 1.3-2 s on 2 cores, longer on a visit whose code V8 has not cached yet). A
// snapshot of the interpreter's memory right after that boot restores in ~0.3 s
// (docs/TESTING.md, "Start-up from a snapshot"). Pyodide's `_makeSnapshot` / `_loadSnapshot`
// options do the work; this module decides when. The snapshot is ~30 MiB, so it is never
// downloaded: the browser makes its own once the page is in use (saveSnapshot, run in
// web/snapshot-worker.mjs by window.tfSaveSnapshot, which trifront/ui/main.py calls once the
// CPU player is ready) and keeps it in Cache Storage, outside the service worker's versioned
// caches: it depends on Pyodide's build alone, not on ours. Pyodide refuses a snapshot of
// another build (its BUILD_ID); any failure to restore deletes the snapshot and starts the
// usual way.
//
// <html data-snapshot> (main thread only, tests and bench/startup.py read it): "restored",
// "none" (no snapshot yet), "failed" (one was there and did not restore), "unavailable" (no
// Cache Storage: an insecure origin, or storage disabled).
import { loadPyodide as loadPlain, version } from "./vendor/pyodide/pyodide.mjs";

export * from "./vendor/pyodide/pyodide.mjs";

const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;
const CACHE = "pyodide-snapshot";
// One key per Pyodide version for the whole origin, not per copy of the site: two copies on
// one origin (a site and its preview on GitHub Pages) share one snapshot instead of each
// deleting the other's.
const KEY = new URL(`/pyodide-snapshot/${version}.bin`, import.meta.url).href;
// localStorage (page only): the Pyodide version whose snapshot this browser stored (a first
// visit then never touches Cache Storage while it starts: opening it costs ~0.1 s cold), or
// "failed <version> <n>" after n attempts to make one failed (a full quota: a third attempt
// is not made, each costs ~2 s of a core and ~60 MiB).
const STORED = "trifront.pyodide-snapshot";
// sessionStorage (this tab's), set while a page restored from the snapshot starts, cleared
// once its menu is ready (#app[data-ready="1"], trifront/ui/main.py's boot marker): still set
// at the tab's next start (a reload after the failure), that restore never got there, and
// this one boots the usual way and makes a new snapshot. Pyodide checks a snapshot's build,
// not its contents: one damaged yet accepted would otherwise break every start until the
// site's data were cleared. Per tab: two tabs starting together must not read each other's
// start as a failure.
const STARTING = "trifront.pyodide-snapshot-starting";
const MAX_ATTEMPTS = 2;
const MAKE_TIMEOUT_MS = 120000;
const onPage = typeof window !== "undefined" && typeof document !== "undefined";

// The CPU worker never uses the page's window or document, yet PyScript 0.7.31 warns at every
// start of a worker that it cannot reach them (no SharedArrayBuffer: the page is not
// cross-origin isolated, and GitHub Pages cannot make it so). Its own off switch, the worker
// config's `sync_main_only = true`, has no effect on a worker whose config is given as a file
// or as JSON text (its Python reads the config as a string; pyscript/pyscript#2426), so the
// worker drops that one sentence here, before PyScript's Python runs. A real failure to reach
// the DOM still raises where it is used.
const WORKER_DOM_WARNING = "Unable to use `window` or `document` in worker.";
if (!onPage && typeof console !== "undefined") {
  const warn = console.warn.bind(console);
  console.warn = (...args) => {
    if (typeof args[0] === "string" && args[0].startsWith(WORKER_DOM_WARNING)) return;
    warn(...args);
  };
}

function report(name, value) {
  if (onPage) document.documentElement.dataset[name] = value;
}

function remembered() {
  try {
    return localStorage.getItem(STORED) || "";
  } catch (error) {  // storage disabled
    return null;
  }
}

function remember(value) {
  try {
    localStorage.setItem(STORED, value);
  } catch (error) { /* the next visit reads Cache Storage, or tries again */ }
}

function maybeStored() {
  const value = onPage ? remembered() : null;
  return value === null || value === version;  // a worker, or no localStorage: ask the cache
}

function failedAttempts() {
  const [word, forVersion, count] = (remembered() || "").split(" ");
  return word === "failed" && forVersion === version ? Number(count) || 0 : 0;
}

function lastStartFailed() {
  try {
    const failed = onPage && sessionStorage.getItem(STARTING) === version;
    if (failed) sessionStorage.removeItem(STARTING);
    return failed;
  } catch (error) {
    return false;
  }
}

function markStarting() {
  if (!onPage) return;  // a worker: its page watches the start
  try {
    sessionStorage.setItem(STARTING, version);
    whenReady(() => sessionStorage.removeItem(STARTING));
  } catch (error) { /* no sessionStorage: nothing to watch with */ }
}

function whenReady(callback) {
  const ready = () => document.querySelector('#app[data-ready="1"]') !== null;
  if (ready()) return callback();
  const observer = new MutationObserver(() => {
    if (ready()) {
      observer.disconnect();
      callback();
    }
  });
  observer.observe(document.documentElement, { subtree: true, attributeFilter: ["data-ready"] });
}

// The restore copied the snapshot into Pyodide's memory; the ~30 MiB JS copy would stay
// reachable (this module's promise, Pyodide's config) for the page's life: detach it.
function release(bytes) {
  try {
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  } catch (error) { /* an old browser keeps it */ }
}

// {storage, cache, bytes}: storage false = no Cache Storage at all; bytes null = no snapshot.
async function readSnapshot() {
  const none = (storage) => ({ storage, cache: null, bytes: null });
  try {
    if (typeof caches === "undefined") return none(false);
    if (!maybeStored() || !(await caches.has(CACHE))) return none(true);
    const cache = await caches.open(CACHE);
    const response = await cache.match(KEY);
    const bytes = response ? new Uint8Array(await response.arrayBuffer()) : null;
    return { storage: true, cache, bytes };
  } catch (error) {  // storage disabled by a browser setting
    return none(false);
  }
}

// Read as soon as PyScript imports this module, while it prepares the rest of its start
// (used once: a later loadPyodide reads again, the first one's copy being released).
let stored = readSnapshot();

// `options` as Pyodide's loadPyodide takes them; the index URL is always the vendored runtime
// (PyScript would derive it from this module's folder).
export async function loadPyodide(options = {}) {
  const settings = { ...options, indexURL: INDEX_URL };
  const { storage, cache, bytes } = await (stored ?? readSnapshot());
  stored = null;
  if (!storage) {
    report("snapshot", "unavailable");
  } else if (bytes === null) {
    report("snapshot", "none");
  } else if (lastStartFailed()) {
    console.warn("TriFront: the last start from the Pyodide snapshot never got to the menu; "
                 + "starting anew");
    report("snapshot", "failed");
    release(bytes);
    await cache.delete(KEY).catch(() => {});
  } else {
    markStarting();
    try {
      const pyodide = await loadPlain({ ...settings, _loadSnapshot: bytes });
      // The boot imported `random` and seeded it: every restore would deal the same "random"
      // numbers. Reseed from the OS (crypto.getRandomValues). (str hashes keep the
      // snapshot's seed, as with a fixed PYTHONHASHSEED: nothing here relies on them.)
      pyodide.runPython("import random\nrandom.seed()");
      report("snapshot", "restored");
      return pyodide;
    } catch (error) {
      console.warn("TriFront: the saved Pyodide snapshot did not restore; starting anew:", error);
      report("snapshot", "failed");
      await cache.delete(KEY).catch(() => {});
    } finally {
      release(bytes);
    }
  }
  return loadPlain(settings);
}

// Boots a fresh interpreter, takes its snapshot and stores it for the next start. Resolves to
// the snapshot's size in bytes, or 0 when there is no Cache Storage to keep it in. Run in
// web/snapshot-worker.mjs (~1.5 s of one core, ~60 MiB while it runs), not on the page.
export async function saveSnapshot() {
  if (typeof caches === "undefined") return 0;
  const cache = await caches.open(CACHE);
  const pyodide = await loadPlain({ indexURL: INDEX_URL, _makeSnapshot: true });
  const bytes = pyodide.makeMemorySnapshot();
  for (const request of await cache.keys()) {  // another Pyodide version's snapshot
    if (request.url !== KEY) await cache.delete(request);
  }
  const headers = { "Content-Type": "application/octet-stream" };
  await cache.put(KEY, new Response(bytes, { headers }));
  return bytes.length;
}

// The page's side: window.tfSaveSnapshot() (trifront/ui/main.py calls it once the CPU player
// is ready, when <html data-snapshot> is "none" or "failed") makes the snapshot in a worker
// and resolves to its size in bytes (<html data-snapshot-saved>), or to 0 without trying
// after MAX_ATTEMPTS failures for this Pyodide version ("skipped"); it rejects with an Error
// (data-snapshot-saved="error") when the worker fails, or takes over MAKE_TIMEOUT_MS.
if (onPage) {
  window.tfSaveSnapshot = () => new Promise((resolve, reject) => {
    const attempts = failedAttempts();
    if (attempts >= MAX_ATTEMPTS) {
      report("snapshotSaved", "skipped");
      resolve(0);
      return;
    }
    const url = new URL("./snapshot-worker.mjs", import.meta.url);
    const worker = new Worker(url, { type: "module" });
    const finish = (ok, value) => {
      clearTimeout(timer);
      worker.terminate();
      report("snapshotSaved", ok ? String(value) : "error");
      if (ok && value > 0) remember(version);
      if (!ok) remember(`failed ${version} ${attempts + 1}`);
      if (ok) resolve(value); else reject(new Error(value));
    };
    const timer = setTimeout(() => finish(false, "the snapshot took too long"), MAKE_TIMEOUT_MS);
    worker.onmessage = ({ data }) => finish(data.ok, data.ok ? data.bytes : data.error);
    worker.onerror = (event) => finish(false, event.message || "the snapshot worker did not start");
  });
}
