import { API_BASE } from './client.ts';
import { session } from './session.ts';

/**
 * A link the browser follows itself (a download, a video's src): it cannot send headers, so
 * the access token rides in the URL, which the server accepts on its download route only.
 */
export function downloadUrl(node: { id: string }, inline = false): string {
  const token = session.currentAccessToken();
  const query = new URLSearchParams();
  if (inline) query.set('inline', '1');
  if (token) query.set('access_token', token);
  return `${API_BASE}/nodes/${node.id}/download?${query}`;
}

/** Downloads a file with a token fresh enough to outlive the click. */
export async function startDownload(node: { id: string; name: string }): Promise<void> {
  await session.accessToken();
  const link = document.createElement('a');
  link.href = downloadUrl(node);
  link.download = node.name;
  document.body.append(link);
  link.click();
  link.remove();
}
