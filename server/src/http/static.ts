import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { API_PREFIX } from './paths.ts';

/**
 * Serves the built web app (renderer/dist) at `/`. Hashed assets are cached for good; every
 * app route (`/files/...`, `/s/<token>`, `/invite/<code>`) answers index.html so the app's
 * router takes over; `/api/...` never does, so an API typo stays a JSON 404.
 */
export function webApp(webDir: string | null): Koa.Middleware {
  // null: an API-only server (tests, embedders); a folder without index.html: not built yet.
  const root = webDir === null ? null : path.resolve(webDir);
  return async (ctx, next) => {
    if (root === null || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();
    if (!fs.existsSync(path.join(root, 'index.html'))) {
      if (ctx.path === '/' || !hasExtension(ctx.path)) return notBuilt(ctx);
      return next();
    }
    const file = await findFile(root, ctx.path);
    if (file) return sendFile(ctx, file, cacheControlFor(root, file));
    // A missing script or image must stay a 404: index.html in its place would fail obscurely.
    if (hasExtension(ctx.path)) return next();
    return sendFile(ctx, path.join(root, 'index.html'), 'no-cache');
  };
}

function isApiPath(p: string): boolean {
  return p === API_PREFIX || p.startsWith(`${API_PREFIX}/`) || p === '/api' || p.startsWith('/api/');
}

function hasExtension(p: string): boolean {
  return /\.[A-Za-z0-9]+$/.test(path.posix.basename(p));
}

async function findFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  // Resolved against the root and checked to stay inside it: `/../hearth.db` reads nothing.
  const file = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    const stat = await fs.promises.stat(file);
    return stat.isFile() ? file : null;
  } catch {
    return null;
  }
}

/** Vite names what it builds in assets/ after its content: such a URL never changes meaning. */
function cacheControlFor(root: string, file: string): string {
  const relative = path.relative(root, file).split(path.sep);
  if (relative[0] === 'assets') return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

async function sendFile(ctx: Koa.Context, file: string, cacheControl: string): Promise<void> {
  const stat = await fs.promises.stat(file);
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const isPage = file.endsWith('.html');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  if (isPage) setPageHeaders(ctx);
  ctx.type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.length = stat.size;
  ctx.body = ctx.method === 'HEAD' ? null : fs.createReadStream(file);
}

/**
 * The app's pages run only the app's own code: no inline script, nothing from elsewhere, and
 * network access to this server only (its API and its WebSocket). Images may be blobs (the
 * thumbnails fetched with a token) or data URLs (QR codes).
 */
export function pageCsp(host: string): string {
  // The Host is echoed only when it is a plain host[:port]: it can never add a directive.
  const socket = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? ` ws://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${socket}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function setPageHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', pageCsp(ctx.get('Host')));
  ctx.set('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=()');
}

function notBuilt(ctx: Koa.Context): void {
  ctx.status = 503;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body =
    'Hearth is running, but its web app has not been built.\n\n' +
    'Build it with `npm run build` (npm start does this for you), then reload this page.\n' +
    `The API answers at ${API_PREFIX}/status.\n`;
}
