// Offline play and updates for the BUILT site only: scripts/build fills in the build id and
// injects `<script type="module" src="./web/sw-register.js">` into dist/index.html. The page
// served from the repository (scripts/play, the browser tests) never loads this file, so
// development never sees stale cached files. The service worker is sw.js (template web/sw.js).
//
// Updates (docs/DEPLOY.md): a new deployment changes sw.js; the browser notices it when the
// page loads (and this script asks again every hour); the new version downloads in the
// background and then waits. A page that is still starting (the game not shown yet) and is
// the only TriFront tab switches to it at once and reloads. A page in use shows a small notice,
// "A new version of TriFront is ready [Reload] [Later]"; Reload switches (a game against the
// CPU or on one device resumes where it was). Otherwise the new version starts the next time
// TriFront is opened after all its tabs were closed.
const BUILD = "__TRIFRONT_BUILD_ID__";
document.documentElement.dataset.build = BUILD;  // which version this page runs (tests read it)

let wanted = false;  // the player pressed Reload on the notice
const started = () => document.querySelector('#app[data-ready="1"]') !== null;

async function register() {
  let reg;
  try {
    reg = await navigator.serviceWorker.register("./sw.js");
  } catch (error) {  // e.g. a private window that forbids storage: play on without offline
    console.warn("TriFront: no offline mode:", error);
    return;
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The new version took over: reload if asked to, or if nothing was shown yet; a page in
    // use (another tab switched) keeps running and shows the notice instead.
    if (wanted || !started()) location.reload();
    else showNotice(reg, true);
  });
  const onWaiting = () => {
    // On a first visit there is nothing to switch from (no controller): the worker activates.
    if (!reg.waiting || !navigator.serviceWorker.controller) return;
    if (!started()) reg.waiting.postMessage("skip-waiting-if-alone");
    showNotice(reg);
  };
  const track = (worker) => {  // a new version being downloaded
    if (worker) worker.addEventListener("statechange", () => {
      if (worker.state === "installed") onWaiting();
    });
  };
  track(reg.installing);  // the check on page load may have started before this line
  reg.addEventListener("updatefound", () => track(reg.installing));
  onWaiting();  // a version downloaded during an earlier visit
  setInterval(() => reg.update().catch(() => {}), 60 * 60 * 1000);
}

function showNotice(reg, switched = false) {
  if (document.getElementById("tf-update")) return;
  const ja = document.documentElement.lang === "ja";
  const box = document.createElement("div");
  box.id = "tf-update";
  box.setAttribute("role", "status");
  box.style.cssText = "position:fixed;left:50%;bottom:1rem;transform:translateX(-50%);" +
    "z-index:1000;display:flex;gap:.6rem;align-items:center;padding:.6rem .9rem;" +
    "border-radius:.6rem;background:#1d2330;color:#fff;font:15px/1.3 system-ui,sans-serif;" +
    "box-shadow:0 4px 16px rgba(0,0,0,.3);max-width:calc(100vw - 2rem)";
  const text = document.createElement("span");
  text.textContent = ja ? "TriFront の新しいバージョンがあります。" : "A new version of TriFront is ready.";
  const button = (id, label, onclick) => {
    const b = document.createElement("button");
    b.id = id;
    b.type = "button";
    b.textContent = label;
    b.style.cssText = "font:inherit;padding:.3rem .7rem;border-radius:.4rem;cursor:pointer";
    b.addEventListener("click", onclick);
    return b;
  };
  const reload = button("tf-update-reload", ja ? "再読み込み" : "Reload", () => {
    wanted = true;
    reload.disabled = true;
    if (switched || !reg.waiting) location.reload();
    else reg.waiting.postMessage("skip-waiting");  // then "controllerchange" reloads
  });
  const later = button("tf-update-later", ja ? "後で" : "Later", () => box.remove());
  box.append(text, reload, later);
  document.body.append(box);
}

if ("serviceWorker" in navigator) register();
