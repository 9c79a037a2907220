import { useEffect, useState } from 'react';
import { authedFetch, API_BASE } from './client.ts';

/**
 * Thumbnails are fetched with the bearer header and shown from blob URLs, so no token sits in
 * the page or in a URL. The URL names the node's version (`?v=`), so a new version is a new
 * URL. The server answers `private, no-cache` with an ETag: the browser may keep a copy but
 * asks again before each use, and the server checks access before it answers 304 (a few
 * bytes, which fetch hands over as the kept 200). So a copy kept for one account is never
 * shown to the next on this browser, nor after access was taken away. A small in-memory table
 * keeps the blob URLs of recently seen thumbnails for this page, dropped on sign-out.
 */
const MAX_KEPT = 600;
const urls = new Map<string, Promise<string | null>>();
/** How many mounted images want each path: a thumbnail scrolled past before its turn is not fetched. */
const wanted = new Map<string, number>();
let active = 0;
const waiting: (() => void)[] = [];
/** Browsers open about six connections per host: leave room for the API calls. */
const PARALLEL = 4;

export interface Thumbable {
  id: string;
  version: number;
  has_thumbnail: boolean;
  /** A turn the family gave the photo: the server sends it turned, under a URL of its own. */
  rotation?: number;
}

export function thumbnailPath(node: Thumbable, size: 512 | 1024 = 512): string {
  return `${API_BASE}/nodes/${node.id}/thumbnail?v=${node.version}${size === 1024 ? '&size=1024' : ''}${node.rotation ? `&r=${node.rotation}` : ''}`;
}

async function slot<T>(task: () => Promise<T>): Promise<T> {
  if (active >= PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  active += 1;
  try {
    return await task();
  } finally {
    active -= 1;
    waiting.shift()?.();
  }
}

export function loadThumbnail(path: string, fetcher: (request: Request) => Promise<Response> = authedFetch): Promise<string | null> {
  const known = urls.get(path);
  if (known) {
    // Most recently used last, so the oldest is dropped first.
    urls.delete(path);
    urls.set(path, known);
    return known;
  }
  const loading = slot(async () => {
    if (!wanted.get(path)) return null;
    const response = await fetcher(new Request(path));
    if (!response.ok) return null;
    return URL.createObjectURL(await response.blob());
  }).catch(() => null);
  urls.set(path, loading);
  loading.then((url) => {
    if (url === null) urls.delete(path);
  });
  while (urls.size > MAX_KEPT) {
    const [oldest, promise] = urls.entries().next().value as [string, Promise<string | null>];
    urls.delete(oldest);
    void promise.then((url) => url && URL.revokeObjectURL(url));
  }
  return loading;
}

/** Forget every thumbnail on sign-out: nothing of one account stays for the next. */
export function dropThumbnails(): void {
  for (const promise of urls.values()) void promise.then((url) => url && URL.revokeObjectURL(url));
  urls.clear();
}

export function useThumbnail(
  node: Thumbable | null,
  size: 512 | 1024 = 512,
  fetcher?: (request: Request) => Promise<Response>,
): string | null {
  const path = node?.has_thumbnail ? thumbnailPath(node, size) : null;
  const [loaded, setLoaded] = useState<{ path: string; url: string | null } | null>(null);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    wanted.set(path, (wanted.get(path) ?? 0) + 1);
    void loadThumbnail(path, fetcher).then((url) => live && setLoaded({ path, url }));
    return () => {
      live = false;
      const left = (wanted.get(path) ?? 1) - 1;
      if (left > 0) wanted.set(path, left);
      else wanted.delete(path);
    };
  }, [path, fetcher]);
  return loaded !== null && loaded.path === path ? loaded.url : null;
}
