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
// first visit that page then works offline without a reload). The "pyodide-snapshot" cache is
// not a version's (web/pyodide-snapshot.mjs keeps it per Pyodide version) and stays.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("trifront-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// Fetch: every GET of this site (the page, pyscript.toml and its [files], Pyodide, PyScript's
// chunks, from the page or its workers) comes from this version's cache; a query string
// (?seed=, ?room=) is ignored. Anything not in the cache goes to the network as usual.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(self.registration.scope)) return;
  event.respondWith(caches.open(CACHE)
    .then((cache) => cache.match(request, { ignoreSearch: true, ignoreVary: true }))
    .then((cached) => cached || fetch(request)));
});
