import { useEffect, useState } from 'react';
import { authedFetch } from '../../api/client.ts';
import { session } from '../../api/session.ts';

/**
 * Thumbnails for the timeline, fetched with the bearer header and shown from blob URLs (as
 * api/thumbnails.ts does, and why: a `?v=` URL without a token stays in the browser's cache for
 * good). Unlike that loader, a request is dropped when its tile scrolls away before it started,
 * and aborted when it did: a fling through a thousand photos must not leave a thousand requests
 * queued ahead of the ones now on screen.
 */
const PARALLEL = 5;
/** Well above the most tiles mounted at once (about 400), so a URL on screen is never revoked. */
const MAX_KEPT = 900;

interface Job {
  path: string;
  listeners: Set<(url: string | null) => void>;
  controller: AbortController | null;
}

const ready = new Map<string, string>();
const jobs = new Map<string, Job>();
const queue: Job[] = [];
let running = 0;

/** A thumbnail already loaded, without waiting (the viewer shows it while the larger one loads). */
export function peekThumbnail(path: string): string | null {
  return ready.get(path) ?? null;
}

/** Asks for a thumbnail; the returned function withdraws the ask. */
export function requestThumbnail(path: string, listener: (url: string | null) => void): () => void {
  const known = ready.get(path);
  if (known) {
    ready.delete(path);
    ready.set(path, known);
    listener(known);
    return () => undefined;
  }
  let job = jobs.get(path);
  if (!job) {
    job = { path, listeners: new Set(), controller: null };
    jobs.set(path, job);
    queue.push(job);
  }
  job.listeners.add(listener);
  pump();
  const owned = job;
  return () => {
    owned.listeners.delete(listener);
    if (owned.listeners.size > 0) return;
    jobs.delete(owned.path);
    if (owned.controller) owned.controller.abort();
    else queue.splice(queue.indexOf(owned), 1);
  };
}

function pump(): void {
  while (running < PARALLEL && queue.length > 0) {
    const job = queue.shift()!;
    job.controller = new AbortController();
    running += 1;
    void load(job).finally(() => {
      running -= 1;
      pump();
    });
  }
}

async function load(job: Job): Promise<void> {
  let url: string | null = null;
  try {
    const response = await authedFetch(new Request(job.path, { signal: job.controller!.signal }));
    if (response.ok) url = URL.createObjectURL(await response.blob());
  } catch {
    url = null;
  }
  if (jobs.get(job.path) !== job) {
    // Withdrawn while loading: keep what arrived anyway, it will be asked for again.
    if (url) remember(job.path, url);
    return;
  }
  jobs.delete(job.path);
  if (url) remember(job.path, url);
  for (const listener of job.listeners) listener(url);
}

function remember(path: string, url: string): void {
  ready.set(path, url);
  while (ready.size > MAX_KEPT) {
    const [oldest, old] = ready.entries().next().value as [string, string];
    ready.delete(oldest);
    URL.revokeObjectURL(old);
  }
}

/** Forgets every thumbnail on sign-out: nothing of one account stays for the next. */
session.subscribe(() => {
  if (session.current().kind === 'signed-out') dropGalleryThumbnails();
});

function dropGalleryThumbnails(): void {
  for (const job of jobs.values()) job.controller?.abort();
  jobs.clear();
  queue.length = 0;
  for (const url of ready.values()) URL.revokeObjectURL(url);
  ready.clear();
}

export function useGalleryThumbnail(path: string | null): string | null {
  const [loaded, setLoaded] = useState<{ path: string; url: string | null } | null>(() =>
    path && ready.has(path) ? { path, url: ready.get(path)! } : null,
  );
  useEffect(() => {
    if (path === null) return;
    return requestThumbnail(path, (url) => setLoaded({ path, url }));
  }, [path]);
  return loaded !== null && loaded.path === path ? loaded.url : null;
}
