/**
 * Installs the app-shell service worker where the browser allows one: secure contexts only
 * (localhost now, HTTPS later). A phone on http://<pc>:8420 runs the app without it.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext || import.meta.env.DEV) return;
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}
