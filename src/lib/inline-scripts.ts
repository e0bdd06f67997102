/**
 * The few scripts that must run inline, before or without any bundle. They live here, not in the
 * pages, so that astro.config can list their hashes in the Content-Security-Policy: a page's inline
 * script runs only if its exact text is one of these (no 'unsafe-inline'). Render one with
 * <InlineScript name="..."/> (src/components/InlineScript.astro); its text is served verbatim.
 */
import { AD_CLICK_PARAMS } from './config/request.ts';

export const INLINE_SCRIPTS = {
  /** The header's popups open from a plain click handler, before any bundle has loaded. */
  headerDialogs: `// Opens the header's popups; a plain handler so that it works before any bundle has loaded.
document.addEventListener('click', function (event) {
  var opener = event.target instanceof Element && event.target.closest('[data-opens]');
  var dialog = opener && document.getElementById(opener.getAttribute('data-opens'));
  if (dialog && !dialog.open) dialog.showModal();
});`,
  /** Ad click ids of the landing URL, kept for the browsing session. */
  adClickIds: `// Ad click ids are kept for the browsing session (SPEC.md section 2).
(function () {
  try {
    var params = new URLSearchParams(location.search);
    ${JSON.stringify(AD_CLICK_PARAMS)}.forEach(function (key) {
      var value = params.get(key);
      if (value) sessionStorage.setItem(key, value);
    });
  } catch (e) {}
})();`,
  /** Floating things (the customer-service button, toasts) keep above any bar held to the bottom of the screen. */
  bottomBarHeight: `// A page's bottom bars (Buy now, Place order, offers) are marked data-bottom-bar; the floating
// customer-service button and toasts rise above the tallest, and follow it as it grows or hides.
(function () {
  var bars = document.querySelectorAll('[data-bottom-bar]');
  if (!bars.length) return;
  var root = document.documentElement;
  function place() {
    var height = 0;
    bars.forEach(function (bar) { height = Math.max(height, bar.offsetHeight); });
    root.style.setProperty('--bottom-bar-height', height + 'px');
  }
  place();
  if ('ResizeObserver' in window) {
    var observer = new ResizeObserver(place);
    bars.forEach(function (bar) { observer.observe(bar); });
  }
})();`,
  /** The orders page scrolls its current tab into view. */
  ordersTabIntoView: `// The tab row scrolls sideways on a phone: bring the current tab into view, centred.
(function () {
  var nav = document.currentScript.previousElementSibling;
  var current = nav.querySelector('[aria-current="page"]');
  if (current) nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
})();`,
  /** The app-download page picks its language before first paint. */
  appInfoLanguage: `// ?language= first (the banner passes the page language; older links pass zh or zh_HK), then the browser.
(function () {
  var asked = new URLSearchParams(location.search).get('language') || navigator.language || 'en';
  var code = asked.replace('_', '-').toLowerCase();
  var lang = 'en';
  var script = 'en';
  if (code.indexOf('zh') === 0) {
    var traditional = /hant|-hk|-tw|-mo/.test(code);
    lang = traditional ? (code.indexOf('-tw') > 0 ? 'zh-TW' : 'zh-HK') : 'zh-CN';
    script = traditional ? 'hant' : 'hans';
  }
  var root = document.documentElement;
  root.lang = lang;
  root.setAttribute('data-script', script);
  document.title = root.getAttribute('data-title-' + script) || document.title;
})();`,
  /** "Back" on the login page returns to the previous page of ours. */
  loginBack: `// "Back" goes one step back when the previous page is ours; otherwise the link leads home.
document.querySelector('[data-back]').addEventListener('click', function (event) {
  try {
    if (history.length > 1 && document.referrer && new URL(document.referrer).origin === location.origin) {
      event.preventDefault();
      history.back();
    }
  } catch (e) {}
});`,
} as const;

export type InlineScriptName = keyof typeof INLINE_SCRIPTS;
