import { useQuery } from '@tanstack/react-query';
import { API_BASE, authedFetch } from '../../api/client.ts';
import { saveFrom } from '../../api/saveFrom.ts';
import type { ViewerAction, ViewerItem } from '../viewer/index.ts';
import { photoEditsQuery } from './edits.ts';

type Editable = ViewerItem & { rotation?: number };

/**
 * "Download as edited", offered beside the plain Download (the original, as always) for a photo
 * with edits: turned, or its date or place corrected. The server makes it again on request; it
 * comes with the session's header (no token in a URL) and is saved from this page.
 */
export function useDownloadEdited<T extends Editable>(current: T | undefined, signedIn: boolean): ViewerAction<T> {
  const photo = signedIn && current !== undefined && current.mime_type?.startsWith('image/') === true;
  const edits = useQuery({ ...photoEditsQuery(current?.id ?? ''), enabled: photo });
  // The edits as last answered (an edit made a moment ago in the panel included), or the node's own turn.
  const edited = (item: T) =>
    !!item.rotation ||
    (edits.data?.node.id === item.id && (edits.data.rotation !== 0 || edits.data.taken_edited || edits.data.place_edited));
  return {
    label: 'Download as edited',
    icon: 'download',
    offered: (item) => item.id === current?.id && photo && edited(item),
    onClick: (item) => void downloadEdited(item).catch(() => undefined),
  };
}

async function downloadEdited(item: { id: string; name: string }): Promise<void> {
  const response = await authedFetch(new Request(`${API_BASE}/photos/${item.id}/edited`));
  if (!response.ok) throw new Error(`Download as edited: ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  saveFrom(url, editedName(item.name, response.headers.get('content-type') === 'image/png' ? '.png' : '.jpg'));
  // The browser has taken the file by then; the page keeps no copy.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** "Beach (edited).jpg" for "Beach.JPG", as the server names it. */
export function editedName(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name} (edited)${extension}`;
}
