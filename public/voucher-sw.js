/**
 * The service worker of the pages that must open without signal, registered by each with the
 * page's own path as scope (/voucher, /en/voucher, /en/gate...; src/lib/offline-copy.ts), so it
 * never sits in front of the rest of the site: the voucher, and the door's check-in page (which
 * keeps its synced tickets in local storage, not here). API calls always go to the network: the
 * pages decide themselves what to do without an answer.
 *
 * A ticket must still show at a gate with no signal. The page asks the worker to save it (and the
 * stylesheets and scripts it loaded: its script redraws the rotating entry code from the ticket's
 * secret in the page) as soon as it opens, since the first visit is not yet served through the worker;
 * after that every request of a voucher page goes to the network first, refreshes the saved copy
 * (a ticket's state may change), and falls back to the copy when the network is gone.
 */
const CACHE = 'voucher-v1';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('voucher-') && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

function sameOrigin(url) {
  try {
    return new URL(url).origin === self.location.origin;
  } catch {
    return false;
  }
}

/** Saves the URLs; true when the first (the page) is available offline afterwards. */
async function save(urls) {
  const cache = await caches.open(CACHE);
  try {
    await cache.addAll(urls);
    return true;
  } catch {
    // Offline or a failed stylesheet: the page may still be there from an earlier visit.
    return Boolean(await cache.match(urls[0], { ignoreVary: true }));
  }
}

self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'voucher-save' || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((url) => typeof url === 'string' && sameOrigin(url));
  if (urls.length === 0) return;
  event.waitUntil(
    save(urls).then((saved) => {
      if (saved && event.source) event.source.postMessage({ type: 'voucher-saved', url: urls[0] });
    }),
  );
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const saved = await cache.match(request, { ignoreVary: true });
    if (saved) return saved;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !sameOrigin(request.url) || new URL(request.url).pathname.startsWith('/api/')) return;
  event.respondWith(networkFirst(request));
});
