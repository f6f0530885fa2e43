// The service worker of the installed app (served as /sw.js, headed by VERSION and SHELL:
// server/installable.py). It keeps the app's shell so that the app opens with no network:
// the network first, always (a page online is never older than the server's), the cache when
// the network fails. A table's facts never pass through the cache: /api/ (but the options)
// and /ws/ go to the network untouched, and only what the shell lists is ever stored.
const CACHE = `ono99-${VERSION}`;
const SHELL_PATHS = new Set(SHELL);
const APP_PAGE = /^\/(t\/[^/]+(\/replay\/\d+)?\/?)?$/; // server/app.py's page routes

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
      .then((keys) => keys.filter((k) => k.startsWith("ono99-") && k !== CACHE))
      .then((old) => Promise.all(old.map((k) => caches.delete(k)))),
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
  }
});

/**
 * The network's answer, kept as the shell's ``key``; the kept one when the network fails.
 * @param {Request} request
 * @param {string} key
 */
async function fromNetwork(request, key) {
  const cache = await caches.open(CACHE);
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
