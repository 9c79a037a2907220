import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client.ts';
import type { ViewerAction, ViewerItem } from '../viewer/index.ts';

type Said = { kind: 'working' } | { kind: 'kept'; folderId: string | null; name: string } | { kind: 'failed'; message: string };

/** Someone else's photo (an album's, a partner's, a shared folder's): the API marks it `shared`. */
const theirs = (item: ViewerItem) => (item as { shared?: boolean }).shared === true;

/**
 * "Keep a copy" in the viewer, for a photo that is someone else's: the server makes it the
 * person's own file in "Kept copies" (nothing is downloaded or sent again), and a message says
 * where it went, with the way there.
 */
export function useKeepCopy<T extends ViewerItem>(): { action: ViewerAction<T>; view: ReactNode } {
  const [said, setSaid] = useState<Said | null>(null);
  const keep = useCallback(async (item: T) => {
    setSaid({ kind: 'working' });
    try {
      const copy = await data(api.POST('/nodes/{id}/keep', { params: { path: { id: item.id } } }));
      setSaid({ kind: 'kept', folderId: copy.parent_id, name: copy.name });
    } catch (error) {
      setSaid({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }, []);
  const action = useMemo<ViewerAction<T>>(
    () => ({ label: 'Keep a copy', icon: 'copy', offered: theirs, onClick: (item) => void keep(item) }),
    [keep],
  );
  let view: ReactNode = null;
  if (said?.kind === 'working') {
    view = (
      <div className="gallery-toast" role="status">
        Keeping a copy…
      </div>
    );
  } else if (said?.kind === 'kept') {
    view = (
      <div className="gallery-toast" role="status">
        <span>Kept a copy in your files, in Kept copies. It counts towards your storage.</span>
        <Link className="btn btn-quiet gallery-toast-action" to={said.folderId ? `/files/${said.folderId}` : '/files'}>
          Open Kept copies
        </Link>
      </div>
    );
  } else if (said?.kind === 'failed') {
    view = (
      <div className="gallery-toast" role="alert">
        <span>Could not keep a copy: {said.message}</span>
        <button type="button" className="btn btn-quiet gallery-toast-action" onClick={() => setSaid(null)}>
          OK
        </button>
      </div>
    );
  }
  return { action, view };
}
