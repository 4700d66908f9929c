// Offline play and updates for the BUILT site only: scripts/build fills in the build id and
// injects `<script type="module" src="./web/sw-register.js">` into dist/index.html. The page
// served from the repository (scripts/play, the browser tests) never loads this file, so
// development never sees stale cached files. The service worker is sw.js (template web/sw.js).
//
// Updates (docs/DEPLOY.md): a new deployment changes sw.js; the browser notices it when the
// page loads (and this script asks again every hour); the new version downloads in the
// background and takes over as soon as it is complete. Then a page that is still starting
// (the game not shown yet) reloads at once into the new version; a page in use keeps running
// and shows a small notice, "A new version of TriFront is ready [Reload] [Later]". A game
// against the CPU or on one device resumes after the reload (it is saved in the browser).
const BUILD = "__TRIFRONT_BUILD_ID__";
document.documentElement.dataset.build = BUILD;  // which version this page runs (tests read it)

const started = () => document.querySelector('#app[data-ready="1"]') !== null;
const CONTROL_WAIT_MS = 10000;
let offline = null;

// Called by trifront/ui/main.py once the menu is ready, so that on a first visit the ~15 MiB
// precache never competes with the page's own start-up (bench/startup.py: cold 1.23-1.31 x a
// bare page when registered at load, 1.08-1.20 now), and awaited before it starts the CPU
// worker: the promise resolves true once the service worker controls this page (at once on a
// later visit), false without offline mode or after CONTROL_WAIT_MS (a slow install may still
// finish and take over later; the worker just does not wait for it). So on a first visit the
// CPU worker starts once the precache is done (not competing with it either) and loads its
// runtime from the cache just written: the page is ready for offline play, worker included.
// <html data-offline>: "registering", then "ready" (controlled) or "none" (tests read it).
window.tfOffline = () => {
  if (offline === null) {
    document.documentElement.dataset.offline = "registering";
    offline = ("serviceWorker" in navigator ? register() : Promise.resolve(false)).then((ok) => {
      document.documentElement.dataset.offline = ok ? "ready" : "none";
      return ok;
    });
  }
  return offline;
};

// No controller at load = a first visit: the worker taking control then is not an update.
let updating = "serviceWorker" in navigator && navigator.serviceWorker.controller !== null;

async function register() {
  const controlled = new Promise((resolve) => {
    if (navigator.serviceWorker.controller) resolve(true);
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
    setTimeout(() => resolve(false), CONTROL_WAIT_MS);
  });
  let reg;
  try {
    reg = await navigator.serviceWorker.register("./sw.js");
  } catch (error) {  // e.g. a browser setting that forbids storage: play on, just not offline
    console.warn("TriFront: no offline mode:", error);
    return false;
  }
  setInterval(() => reg.update().catch(() => {}), 60 * 60 * 1000);
  return controlled;
}

if ("serviceWorker" in navigator) {
  // Listened for from the start: the browser checks for a new version on every navigation, so
  // an update can take over before the menu is ready (then the page just reloads).
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!updating) { updating = true; return; }  // first visit: now ready to play offline
    if (started()) showNotice(); else location.reload();
  });
}

function showNotice() {
  if (document.getElementById("tf-update")) return;
  const ja = document.documentElement.lang === "ja";
  const box = document.createElement("div");
  box.id = "tf-update";
  box.setAttribute("role", "status");
  box.className = "tf-update";   // styled in web/css/trifront.css: under the top bar
  const text = document.createElement("span");
  text.textContent = ja ? "TriFront の新しいバージョンがあります。" : "A new version of TriFront is ready.";
  const button = (id, label, cls, onclick) => {
    const b = document.createElement("button");
    b.id = id;
    b.type = "button";
    b.className = "tf-btn tf-btn-small " + cls;
    b.textContent = label;
    b.addEventListener("click", onclick);
    return b;
  };
  box.append(text,
    button("tf-update-reload", ja ? "再読み込み" : "Reload", "tf-btn-primary",
           () => location.reload()),
    button("tf-update-later", ja ? "後で" : "Later", "tf-btn-ghost", () => box.remove()));
  document.body.append(box);
}
