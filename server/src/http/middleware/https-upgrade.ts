import type Koa from 'koa';
import { API_PREFIX } from '../paths.ts';

/**
 * Set by the guided page on a phone once it has proven the phone trusts Hearth's certificate
 * (its HTTPS check answered), to the authority's fingerprint. Not a secret: it only says "this
 * browser trusts that authority here" (HomeHttps.trustedBy).
 */
export const TRUSTS_HTTPS_COOKIE = 'hearth_https';

/** A week: long enough to shield a phone that comes back, short enough that a reinstalled server without its backup does not lock phones out of the guided page for long. */
const HSTS = 'max-age=604800';

/**
 * Sends a phone that trusts the certificate from plain HTTP to HTTPS, and only such a phone:
 * everyone else (a phone that skipped the guided page, the desktop window on 127.0.0.1, a
 * script) keeps plain HTTP working. HSTS is sent only over HTTPS to such a phone, and only on
 * the server's own `.local` name (HomeHttps.hstsFor), so a browser
 * that never trusted the certificate is never told to refuse plain HTTP (browsers ignore HSTS
 * on a connection with certificate errors anyway).
 */
export function httpsUpgrade(homeHttps: {
  trustedBy(cookie: string | undefined): boolean;
  servesHttpsFor(hostname: string): boolean;
  hstsFor(hostname: string): boolean;
}): Koa.Middleware {
  return async (ctx, next) => {
    const trusts = homeHttps.trustedBy(ctx.cookies.get(TRUSTS_HTTPS_COOKIE));
    if (ctx.secure) {
      if (trusts && homeHttps.hstsFor(ctx.hostname)) ctx.set('Strict-Transport-Security', HSTS);
      return next();
    }
    if (trusts && isPageOpening(ctx) && homeHttps.servesHttpsFor(ctx.hostname)) {
      // 307 keeps the method; only page openings get here, never API calls mid-session.
      ctx.status = 307;
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(`https://${ctx.host}${ctx.url}`);
      return;
    }
    return next();
  };
}

/** A page the browser opens (typed, bookmarked, a link), not a request a page makes. */
function isPageOpening(ctx: Koa.Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  if (ctx.path === API_PREFIX || ctx.path.startsWith(`${API_PREFIX}/`)) return false;
  const mode = ctx.get('Sec-Fetch-Mode');
  return mode ? mode === 'navigate' : ctx.accepts('html') === 'html';
}
