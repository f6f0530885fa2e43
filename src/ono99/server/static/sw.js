// The service worker of the installed app (served as /sw.js, headed by VERSION and SHELL:
// server/installable.py). It keeps the app's shell so that the app opens with no network:
// the network first, always (a page online is never older than the server's), the cache when
// the network fails. A table's facts never pass through the cache: /api/ (but the options)
// and /ws/ go to the network untouched, and only what the shell lists is ever stored.
// The offline app's runtime (/app/, server/offline.py) is kept too, but only once a person has
// chosen offline play and the page kept it (keepRuntime): its files are named by version, so
// the kept copy is used first; /app/runtime.json, which names them, goes to the network first.
const CACHE = `ono99-${VERSION}`;
const RUNTIME = "ono99-runtime"; // kept across shells: a new server is not a new Pyodide
const SHELL_PATHS = new Set(SHELL);
const APP_PAGE = /^\/(t\/[^/]+(\/replay\/\d+)?\/?|offline\/?)?$/; // server/app.py's page routes
const VERSIONED = /^\/app\/(pyodide-[^/]+\/[^/]+|ono99-[0-9a-f]+\.zip)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => keys.filter((k) => k.startsWith("ono99-") && k !== CACHE && k !== RUNTIME))
      .then((old) => Promise.all(old.map((k) => caches.delete(k))))
      // The first visit's page too: a person who chooses offline play at once has its
      // runtime kept for the next time, with no reload first.
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && APP_PAGE.test(url.pathname)) {
    // Every page of the app is the one client (index.html), which reads the address itself.
    event.respondWith(fromNetwork(request, "/"));
  } else if (SHELL_PATHS.has(url.pathname) && !url.search) {
    event.respondWith(fromNetwork(request, url.pathname));
  } else if (url.pathname === "/app/runtime.json") {
    event.respondWith(fromNetwork(request, url.pathname, RUNTIME));
  } else if (VERSIONED.test(url.pathname)) {
    event.respondWith(kept(request, url.pathname));
  }
});

/**
 * A file named by its version: the kept copy, else the network's. Only the offline page keeps
 * them (device/device.js, keepRuntime, once the engine has started): two writers of one large
 * entry at once, one of them cut off when the network goes, lost it now and then.
 * @param {Request} request
 * @param {string} key
 */
async function kept(request, key) {
  const cache = await caches.open(RUNTIME);
  return (await cache.match(key)) ?? fetch(request);
}

/**
 * The network's answer, kept as the shell's ``key``; the kept one when the network fails.
 * @param {Request} request
 * @param {string} key
 * @param {string} [name]  the cache
 */
async function fromNetwork(request, key, name = CACHE) {
  const cache = await caches.open(name);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}
