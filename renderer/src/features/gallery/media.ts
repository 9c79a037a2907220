import { useEffect, useState } from 'react';
import { API_BASE } from '../../api/client.ts';
import { session } from '../../api/session.ts';

/**
 * Links the browser follows itself (an original photo zoomed in, a video's src, a download)
 * cannot carry the bearer header: the token rides in the URL, which the server accepts on the
 * download route (one of the spec's four), and the request log never records.
 */
export function mediaUrl(node: { id: string }, token: string, inline = true): string {
  const query = new URLSearchParams({ access_token: token });
  if (inline) query.set('inline', '1');
  return `${API_BASE}/nodes/${node.id}/download?${query}`;
}

/** A media URL made now, with a token fresh enough for the browser to start loading it. */
export async function freshMediaUrl(node: { id: string }, inline = true): Promise<string | null> {
  const token = await session.accessToken();
  return token ? mediaUrl(node, token, inline) : null;
}

/** Saves a file on the device (the browser's own download, resumable and off this page). */
export async function downloadFile(node: { id: string; name: string }): Promise<void> {
  const url = await freshMediaUrl(node, false);
  if (!url) return;
  const link = document.createElement('a');
  link.href = url;
  link.download = node.name;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * The current access token for media URLs, renewed every few minutes (tokens live 15): a URL
 * keeps the token it was made with, so a photo already shown never reloads for a new one.
 */
export function useMediaToken(): string | null {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const renew = () => void session.accessToken().then((fresh) => live && setToken(fresh));
    renew();
    const timer = setInterval(renew, 4 * 60_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  return token;
}
