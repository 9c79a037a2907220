import { saveFrom } from './saveFrom.ts';
import { API_BASE, api, data } from './client.ts';

/**
 * Links the browser follows by itself (a download, a video's src, a photo's original once
 * zoomed) cannot carry the bearer header, so their token rides in the URL. It is never the
 * session's own: the browser keeps such URLs (its downloads list, its history) long after the
 * page, and the session's token opens the whole account. The server makes one on request
 * (POST /nodes/{id}/access-token) that opens this node's download and nothing else, reads
 * only, and lasts a few minutes.
 */
export interface DownloadLink {
  url: string;
  /** By this device's clock: when the link stops working. */
  expiresAt: number;
}

/** A clock far off (a phone set by hand) is not trusted with the token's lifetime: then assume a minute. */
const UNTRUSTED_CLOCK_LIFETIME_MS = 60_000;

export async function downloadLink(node: { id: string }, inline = false): Promise<DownloadLink> {
  const token = await nodeUrlToken(node);
  const query = new URLSearchParams();
  if (inline) query.set('inline', '1');
  query.set('access_token', token.token);
  return { url: `${API_BASE}/nodes/${node.id}/download?${query}`, expiresAt: token.expiresAt };
}

/** A video's file and its playback copy, behind one token (it opens every URL of its node). */
export async function videoLinks(node: { id: string }): Promise<DownloadLink & { copyUrl: string }> {
  const token = await nodeUrlToken(node);
  const query = new URLSearchParams({ access_token: token.token });
  return {
    url: `${API_BASE}/nodes/${node.id}/download?inline=1&${query}`,
    copyUrl: `${API_BASE}/nodes/${node.id}/download?copy=playback&${query}`,
    expiresAt: token.expiresAt,
  };
}

/** Whether a URL is a video's playback copy (renewed as a copy, not as the original). */
export function isPlaybackCopyUrl(url: string): boolean {
  const parsed = new URL(url, window.location.href);
  return parsed.searchParams.get('copy') === 'playback' || parsed.pathname.endsWith('/playback-copy');
}

async function nodeUrlToken(node: { id: string }): Promise<{ token: string; expiresAt: number }> {
  const minted = await data(api.POST('/nodes/{id}/access-token', { params: { path: { id: node.id } } }));
  const lifetime = minted.expires_at - Date.now();
  const expiresAt = lifetime > 0 && lifetime < 3_600_000 ? minted.expires_at : Date.now() + UNTRUSTED_CLOCK_LIFETIME_MS;
  return { token: minted.access_token, expiresAt };
}

/** Saves a file on the device: the browser's own download, resumable and off this page. */
export async function startDownload(node: { id: string; name: string }): Promise<void> {
  const { url } = await downloadLink(node);
  saveFrom(url, node.name);
}
