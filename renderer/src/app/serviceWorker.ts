/**
 * Installs the app-shell service worker where the browser allows one: secure contexts only
 * (localhost, HTTPS). A phone on http://<pc>:8420 runs the app without it.
 *
 * Not while the first screen is still arriving: installing fetches and caches the shell, which
 * would compete with the first photos for a phone's CPU and connection. It waits until a while
 * after the page's load and a quiet moment; push (kits/notifications) registers at once when a
 * person turns it on before that.
 */
const SETTLE_MS = 3_000;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext || import.meta.env.DEV) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  const whenQuiet = () => ('requestIdleCallback' in window ? requestIdleCallback(register, { timeout: SETTLE_MS }) : register());
  const afterLoad = () => setTimeout(whenQuiet, SETTLE_MS);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}
