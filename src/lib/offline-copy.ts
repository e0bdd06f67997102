/**
 * Keeps the page open now usable without a network (the voucher at the door, and the door's own
 * check-in page): registers the service worker (public/voucher-sw.js) with this page's path as its
 * scope, and asks it to save the page and every bundle the page loaded (its scripts and their
 * chunks, its stylesheets), since this first visit was not yet served through the worker; bundles
 * loaded later (an island hydrating when idle) are saved as they come. `status` shows its
 * `data-saving` text, then its `data-ready` text once the page and its bundles so far are saved.
 */
export function keepOfflineCopy(status: HTMLElement | null): void {
  if (!('serviceWorker' in navigator) || !status) return;
  const url = location.href;
  status.textContent = status.dataset.saving ?? '';
  navigator.serviceWorker.addEventListener('message', (event) => {
    if (event.data?.type === 'voucher-saved' && event.data.url === url) status.textContent = status.dataset.ready ?? '';
  });
  navigator.serviceWorker.startMessages();
  navigator.serviceWorker.register('/voucher-sw.js', { scope: location.pathname }).catch(() => {});
  void navigator.serviceWorker.ready.then((registration) => {
    const save = (urls: string[]) => registration.active?.postMessage({ type: 'voucher-save', urls });
    save([url, ...bundlesOf(performance.getEntriesByType('resource'))]);
    new PerformanceObserver((list) => {
      const later = bundlesOf(list.getEntries());
      if (later.length > 0) save(later);
    }).observe({ type: 'resource' });
  });
}

/** The URLs of our own bundles among loaded resources. */
function bundlesOf(entries: PerformanceEntryList): string[] {
  const urls = entries
    .map((entry) => new URL(entry.name))
    .filter((resource) => resource.origin === location.origin && resource.pathname.startsWith('/_astro/'))
    .map((resource) => resource.href);
  return [...new Set(urls)];
}
