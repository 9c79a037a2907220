import { API_BASE, data, publicApi } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';

/**
 * What a visitor without an account asks the server. Everything goes through `publicApi`, which
 * sends no Authorization header: a family member signed in in another tab lends nothing of
 * their session to a public page. The unlock grant travels as `X-Share-Grant` on API calls and
 * as `?grant=` on what the browser fetches by itself (images, video, downloads).
 */
export type SharedInfo = Answer<'/s/{token}', 'get'>;
export type SharedNode = SharedInfo['node'];
export type SharedPage = Answer<'/s/{token}/children', 'get'>;

const headersFor = (grant: string | null): Record<string, string> => (grant ? { 'X-Share-Grant': grant } : {});

export function fetchShare(token: string, grant: string | null): Promise<SharedInfo> {
  return data(publicApi.GET('/s/{token}', { params: { path: { token } }, headers: headersFor(grant) }));
}

export function unlockShare(token: string, password: string) {
  return data(publicApi.POST('/s/{token}/unlock', { params: { path: { token } }, body: { password } }));
}

export function fetchChildren(
  token: string,
  grant: string | null,
  parentId: string | null,
  cursor: string | undefined,
  sort: 'name' | 'taken' = 'name',
): Promise<SharedPage> {
  return data(
    publicApi.GET('/s/{token}/children', {
      params: {
        path: { token },
        query: { sort, order: 'asc', limit: 120, ...(parentId ? { parent_id: parentId } : {}), ...(cursor ? { cursor } : {}) },
      },
      headers: headersFor(grant),
    }),
  );
}

export type SharedPlayback = Answer<'/s/{token}/playback', 'get'>;

/** How to play a video of the link (the original, or its playback copy), as the app asks it. */
export function fetchPlayback(token: string, grant: string | null, nodeId: string): Promise<SharedPlayback> {
  return data(
    publicApi.GET('/s/{token}/playback', { params: { path: { token }, query: { node_id: nodeId } }, headers: headersFor(grant) }),
  );
}

/** A video's playback copy, for a browser that cannot play the original. */
export function playbackCopyUrl(token: string, grant: string | null, nodeId: string): string {
  return linkUrl(token, 'playback-copy', { node_id: nodeId, grant });
}

function linkUrl(
  token: string,
  route: 'thumbnail' | 'download' | 'playback-copy' | 'zip',
  params: Record<string, string | null | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const search = query.toString();
  return `${API_BASE}/s/${encodeURIComponent(token)}/${route}${search ? `?${search}` : ''}`;
}

/** The picture of a node of the link; the version makes the URL change when the content does. */
export function thumbnailUrl(token: string, grant: string | null, node: SharedNode, size: 512 | 1024 = 512): string {
  return linkUrl(token, 'thumbnail', { node_id: node.id, v: String(node.version), size: size === 1024 ? '1024' : null, grant });
}

export function downloadUrl(token: string, grant: string | null, node: SharedNode, inline = false): string {
  return linkUrl(token, 'download', { node_id: node.id, inline: inline ? '1' : null, grant });
}

/** Download all: one zip of everything the link shows (the browser saves it as it comes). */
export function zipUrl(token: string, grant: string | null): string {
  return linkUrl(token, 'zip', { grant });
}

export type MediaKind = 'image' | 'video' | 'other';

export function mediaKind(node: SharedNode): MediaKind {
  if (node.type !== 'file') return 'other';
  if (node.mime_type?.startsWith('image/')) return 'image';
  if (node.mime_type?.startsWith('video/')) return 'video';
  return 'other';
}
