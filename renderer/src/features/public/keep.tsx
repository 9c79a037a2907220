import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { api, data } from '../../api/client.ts';
import { sessionKeptHere } from '../../api/session.ts';
import type { ViewerAction } from '../../kits/viewer/index.ts';
import type { SharedNode } from './api.ts';

type Said = { kind: 'working' } | { kind: 'kept'; folderId: string | null } | { kind: 'failed'; message: string };

/**
 * "Keep a copy" on a link's page, for a family member signed in in this browser: the server makes
 * the photo their own file in "Kept copies" (nothing is downloaded and sent again). The page
 * itself never uses the session (it works for anyone); only this tap does, with the link's token
 * in a header, never in the address.
 */
export function useLinkKeep(
  token: string,
  grant: string | null,
  allowed: boolean,
): { action: ViewerAction<SharedNode> | null; keep: ((node: SharedNode) => void) | null; view: ReactNode } {
  const [said, setSaid] = useState<Said | null>(null);
  const offered = allowed && sessionKeptHere();
  const keep = useCallback(
    async (node: SharedNode) => {
      setSaid({ kind: 'working' });
      try {
        const copy = await data(
          api.POST('/nodes/{id}/keep', {
            params: { path: { id: node.id } },
            headers: { 'X-Share-Token': token, ...(grant ? { 'X-Share-Grant': grant } : {}) },
          }),
        );
        setSaid({ kind: 'kept', folderId: copy.parent_id });
      } catch (error) {
        setSaid({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    },
    [token, grant],
  );
  const action = useMemo<ViewerAction<SharedNode> | null>(
    () => (offered ? { label: 'Keep a copy', icon: 'copy', onClick: (node) => void keep(node) } : null),
    [offered, keep],
  );
  let view: ReactNode = null;
  if (said?.kind === 'working') {
    view = (
      <div className="public-toast" role="status">
        Keeping a copy…
      </div>
    );
  } else if (said?.kind === 'kept') {
    view = (
      <div className="public-toast" role="status">
        <span>Kept a copy in your files, in Kept copies. It counts towards your storage.</span>
        <a className="btn btn-quiet" href={said.folderId ? `/files/${said.folderId}` : '/files'}>
          Open Kept copies
        </a>
      </div>
    );
  } else if (said?.kind === 'failed') {
    view = (
      <div className="public-toast" role="alert">
        <span>Could not keep a copy: {said.message}</span>
        <button type="button" className="btn btn-quiet" onClick={() => setSaid(null)}>
          OK
        </button>
      </div>
    );
  }
  return { action, keep: offered ? (node) => void keep(node) : null, view };
}
