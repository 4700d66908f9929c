// TriFront's service worker: the whole game, runtime included, works with no network.
// This is a TEMPLATE: scripts/build copies it to the top of the built site (sw.js, so that
// its scope is the whole site, whatever sub-path it is served under) and fills in the build id
// (a content hash) and the list of files. The repository's own page never registers it.
// docs/DEPLOY.md explains the behaviour; this is the least JavaScript the browser API needs.
"use strict";

const BUILD = "__TRIFRONT_BUILD_ID__";
const CACHE = "trifront-" + BUILD;
// Every file of the site, relative to this script (= the site's root), plus "./" (the page).
const FILES = __TRIFRONT_FILES__;

// Install: download the whole site into this version's cache. `no-cache` revalidates with the
// server (a file that did not change costs a 304, its body comes from the HTTP cache) so an
// old copy in the HTTP cache can never mix with this version. If any file fails, the install
// fails and the previous version stays in charge. A complete new version takes over at once
// (skipWaiting): waiting for every TriFront tab to close proved fragile in Chromium (a waiting
// version asked to skip waiting after a reload stayed waiting until the old worker stopped),
// and a page already running keeps its Python in memory; web/sw-register.js tells it.
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES.map((url) => new Request(url, { cache: "no-cache" }))))
    .then(() => self.skipWaiting()));
});

// Activate: delete the caches of older versions; take control of open pages at once (on a
// first visit that page then works offline without a reload).
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("trifront-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// Fetch. The cache is the fallback, not the first choice: a page of THIS version that came
// from the server fetches everything else as if there were no service worker (no
// respondWith), so the browser uses its HTTP cache and, with it, the compiled code V8 keeps
// beside that copy of `pyodide.asm.wasm`. Answering from Cache Storage instead made every
// second visit compile Pyodide again (~0.5-1.5 s on 2 cores: V8 writes the compiled code for a
// copy only after a page has run from it a while; bench/startup.py, docs/TESTING.md).
//  - A navigation (the page) goes to the server, revalidated (`no-cache`), waiting at most
//    NAVIGATION_WAIT_MS. If the page it gets is this version's (scripts/build writes the build
//    id into it), the page loads the rest from the network like any site (the install above
//    fetched every file with `no-cache`, so the HTTP cache holds this version's). Its workers
//    (PyScript starts them from blob: URLs) are clients of their own: they use the cache.
//  - Otherwise (no network, server down, an error status, or a newer version deployed that
//    this worker has not installed yet) the page comes from this version's cache, and so does
//    every other request of that page: one version, whole, never a mix. A newer version then
//    installs in the background and takes over as before (web/sw-register.js).
//  - Once such a page has started (web/sw-register.js says "started" when the menu is ready),
//    whatever it asks for later (the card back when a board first shows, ...) comes from the
//    cache again: a connection lost in the middle of a game must not cost it a picture.
// Anything not in the cache goes to the network as usual; a query string (?seed=, ?room=) is
// ignored when matching the cache.
const NAVIGATION_WAIT_MS = 4000;
const BUILD_MARK = 'data-build="' + BUILD + '"';  // in the built index.html (scripts/build)
const current = new Set();  // ids of pages loaded from the server, until they started
const CURRENT_KEPT = 64;    // a bound: nobody tells a service worker that a page closed

function rememberCurrent(clientId) {
  if (!clientId) return;
  current.add(clientId);
  if (current.size > CURRENT_KEPT) current.delete(current.values().next().value);
}

function fromCache(request) {
  return caches.open(CACHE)
    .then((cache) => cache.match(request, { ignoreSearch: true, ignoreVary: true }))
    .then((cached) => cached || fetch(request));
}

async function navigate(event) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), NAVIGATION_WAIT_MS);
  try {
    const response = await fetch(event.request, { cache: "no-cache", signal: abort.signal });
    // A redirect (e.g. /repo -> /repo/) is followed by the browser, as a navigation of its own.
    if (response.type === "opaqueredirect") return response;
    if (response.ok && (await response.clone().text()).includes(BUILD_MARK)) {
      rememberCurrent(event.resultingClientId);
      return response;
    }
  } catch (error) {
    // offline, server down, or slower than NAVIGATION_WAIT_MS: the cached page below
  } finally {
    clearTimeout(timer);
  }
  return fromCache(event.request);
}

self.addEventListener("message", (event) => {
  if (event.data === "started" && event.source) current.delete(event.source.id);
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event));
  } else if (!current.has(event.clientId)) {
    event.respondWith(fromCache(request));
  }  // else left to the browser
});
