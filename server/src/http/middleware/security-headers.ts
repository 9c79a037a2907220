import type Koa from 'koa';

/**
 * On every response, errors included: no referrer (URLs may carry share tokens), no MIME
 * sniffing (uploaded content must never turn into script), no framing (clickjacking of the
 * owner console), and no embedding by other sites: a page elsewhere may not pull a family's
 * photos, files or link content into itself with <img>, <video> or <script> (the app itself
 * is same-origin; nothing here is meant for other sites).
 */
export function securityHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set({
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': "frame-ancestors 'none'",
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    await next();
  };
}
