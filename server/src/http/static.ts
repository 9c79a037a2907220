import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import { AppError } from '../app-error.ts';
import { API_PREFIX } from './paths.ts';

/**
 * Serves the built web app (renderer/dist) at `/`. Hashed assets are cached for good; every
 * app route (`/files/...`, `/invite/<code>`) answers index.html so the app's router takes
 * over, and `/s/<token>` the link page's own share.html; `/api/...` never does, so an API typo
 * stays a JSON 404. Text files go out in the compressed copy the build made and the browser
 * accepts (Brotli, else gzip).
 */
export function webApp(webDir: string | null): Koa.Middleware {
  // null: an API-only server (tests, embedders); a folder without index.html: not built yet.
  const root = webDir === null ? null : path.resolve(webDir);
  return async (ctx, next) => {
    if (root !== null && ctx.method === 'POST' && ctx.path === SHARE_TARGET_PATH) return shareMissed(ctx);
    if (root === null || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();
    if (!fs.existsSync(path.join(root, 'index.html'))) {
      if (ctx.path === '/' || !hasExtension(ctx.path)) return notBuilt(ctx);
      return next();
    }
    const file = await findFile(root, ctx.path);
    if (file) return sendFile(ctx, file, cacheControlFor(root, file));
    // A missing script or image must stay a 404: index.html in its place would fail obscurely.
    if (hasExtension(ctx.path)) return next();
    return sendFile(ctx, await pageFor(root, ctx.path), 'no-cache');
  };
}

/**
 * The page of an app route. A shared link's page (`/s/<token>`) has an entry of its own,
 * share.html, that loads none of the family's app (a build without it: the app's page, whose
 * router shows links too).
 */
async function pageFor(root: string, urlPath: string): Promise<string> {
  if (/^\/s\/[^/]+\/?$/.test(urlPath)) {
    const share = path.join(root, 'share.html');
    if (
      await fs.promises.stat(share).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return share;
  }
  return path.join(root, 'index.html');
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

/** The copies the build writes beside each text file (renderer/build/precompress.ts), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.webmanifest', '.json']);

async function sendFile(ctx: Koa.Context, file: string, cacheControl: string): Promise<void> {
  const { body, encoding } = await encodedCopy(ctx, file);
  const stat = await fs.promises.stat(body);
  // Each copy its own tag: a cache must never answer a gzip request with Brotli bytes.
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
  const isPage = file.endsWith('.html');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', etag);
  if (COMPRESSIBLE.has(path.extname(file).toLowerCase())) ctx.vary('Accept-Encoding');
  if (encoding) ctx.set('Content-Encoding', encoding);
  if (isPage) setPageHeaders(ctx);
  else if (isWorkerScript(file)) ctx.set('Content-Security-Policy', WORKER_CSP);
  else if (ctx.path === SERVICE_WORKER_PATH) ctx.set('Content-Security-Policy', SERVICE_WORKER_CSP);
  ctx.type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.length = stat.size;
  ctx.body = ctx.method === 'HEAD' ? null : fs.createReadStream(body);
}

/** The compressed copy of `file` that the request accepts and the build made, else the file itself. */
async function encodedCopy(ctx: Koa.Context, file: string): Promise<{ body: string; encoding: string | null }> {
  if (!COMPRESSIBLE.has(path.extname(file).toLowerCase())) return { body: file, encoding: null };
  for (const { name, suffix } of ENCODINGS) {
    // Negotiated with the client's q-values (`br;q=0` refuses Brotli); identity stays the fallback.
    if (ctx.acceptsEncodings(name, 'identity') !== name) continue;
    try {
      if ((await fs.promises.stat(`${file}${suffix}`)).isFile()) return { body: `${file}${suffix}`, encoding: name };
    } catch {
      // no copy of this kind: the next, or the file itself
    }
  }
  return { body: file, encoding: null };
}

/**
 * The app's pages run only the app's own code: no inline script, nothing from elsewhere, and
 * network access to this server only (its API and its WebSocket). Images may be blobs (the
 * thumbnails fetched with a token) or data URLs (QR codes).
 */
export function pageCsp(host: string): string {
  // The Host is echoed only when it is a plain host[:port]: it can never add a directive.
  // ws: for plain HTTP, wss: for the same page over HTTPS at home (the same port answers both).
  const socket = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? ` ws://${host} wss://${host}` : '';
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

/**
 * A dedicated worker obeys the CSP of its own script's response, not the page's: without this
 * one the hashing worker could fetch anywhere and eval. It may run its own code and compile
 * WebAssembly (hash-wasm), and nothing else: no network at all (it reads the File the page
 * hands it), no eval. Chromium enforces it: without 'wasm-unsafe-eval' no photo is hashed.
 */
export const WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; base-uri 'none'; frame-ancestors 'none'";

/** Where the app registers its service worker (renderer/src/app/serviceWorker.ts). */
const SERVICE_WORKER_PATH = '/sw.js';

/**
 * The service worker, too, obeys its own script's CSP: it may run its own code and talk to this
 * server only (the app's pages it keeps, the shares it receives stay on the phone), no eval.
 */
export const SERVICE_WORKER_CSP = "default-src 'self'; script-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Vite builds `new Worker(new URL('./x.worker.ts', …))` as `assets/x.worker-<hash>.js`: the
 * app's workers are named `*.worker.ts` in renderer/src for this.
 */
function isWorkerScript(file: string): boolean {
  return path.basename(path.dirname(file)) === 'assets' && /\.worker-[A-Za-z0-9_-]+\.js$/.test(path.basename(file));
}

function setPageHeaders(ctx: Koa.Context): void {
  ctx.set('Content-Security-Policy', pageCsp(ctx.get('Host')));
  ctx.set('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=()');
}

/** The manifest's share_target.action (renderer/public/manifest.webmanifest): where the phone's Share sheet posts. */
export const SHARE_TARGET_PATH = '/share-target';

/**
 * A share reaches the server only when the app's service worker, which receives shares on the
 * phone, is not running yet (the first visit, or a browser that cleared it). The share carries
 * no sign-in, so nothing of it is read or kept here: the app's screen says plainly that it did
 * not arrive and to share again (303, so a reload of that screen posts nothing). Node reads the
 * unread body to the end once the answer is sent, so the browser sees the redirect, not a reset.
 *
 * A post another site's page made (the browser says so in Sec-Fetch-Site: `cross-site`, or
 * `same-site` for another port or name of this host) is no share from this device's Share menu,
 * which arrives as `none` (a launch by the browser) or `same-origin`: it is refused, so no
 * website can put "Hearth was not ready" on the screen either.
 */
function shareMissed(ctx: Koa.Context): void {
  const site = ctx.get('Sec-Fetch-Site');
  if (site === 'cross-site' || site === 'same-site') throw new AppError('share_from_other_site');
  ctx.status = 303;
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect('/shared-with-hearth?share=missed');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Hearth was not ready to receive this share. Open Hearth, then share again.\n';
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
