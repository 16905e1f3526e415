// The page's service worker: it keeps the page's own files, so that the page opens and
// works with the network off after one visit (and installs as an app). It caches nothing
// else and sends nothing anywhere: it answers only GET requests for this folder's files,
// from the network while there is one (so a new release shows at once), else from the
// copy it kept. The person's files never pass through it: the page reads them in the tab.
const CACHE = 'memdiag-page';
const FILES = [
  './', './index.html', './style.css', './loader.js', './memdiag-web.js',
  './memdiag-web_bg.wasm', './worker.js', './memdiag-engine.js', './memdiag-engine_bg.wasm',
  './favicon.svg', './manifest.webmanifest',
];

// The bindings import their snippets by paths that name a hash; they are read from them.
// Both quotes occur (an `import * as` of a snippet uses double quotes, and may come several
// times), and Cache.addAll refuses a request listed twice.
async function snippets(names) {
  const found = new Set();
  for (const name of names) {
    const response = await fetch(name, { cache: 'no-store' });
    if (!response.ok) continue;
    const text = await response.clone().text();
    for (const match of text.matchAll(/from ['"]\.\/(snippets\/[^'"]+\.js)['"]/g)) found.add('./' + match[1]);
  }
  return [...found];
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await cache.addAll(await snippets(['./memdiag-web.js', './memdiag-engine.js']));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (request.method !== 'GET' || url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) {
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      // Only the page's own files are kept: those the install listed (and its snippets).
      if (response.ok && (await cache.match(request, { ignoreSearch: true }))) {
        await cache.put(request, response.clone());
      }
      return response;
    } catch (error) {
      const kept = await cache.match(request, { ignoreSearch: true });
      if (kept) return kept;
      throw error;
    }
  })());
});
