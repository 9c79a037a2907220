import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { ApiError } from '../../../api/error-messages.ts';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { formatBytes } from '../../../ui/format.ts';
import { consoleKeys } from '../keys.ts';
import { UsageBar } from '../UsageBar.tsx';
import { LIBRARY_KINDS, LIBRARY_STATUS } from './libraryWords.ts';
import { type Library } from './queries.ts';
import './storage.css';

type Action = 'default' | 'eject' | 'remove';

/** One library: its space, where it is, and what the owner may do with it; the server's refusal in words. */
export function LibraryCard({ library }: { library: Library }) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<Action | null>(null);
  const act = useMutation({
    mutationFn: async (action: Action) => {
      const params = { params: { path: { id: library.id } } };
      if (action === 'default') await data(api.PATCH('/libraries/{id}/set-default', params));
      else if (action === 'eject') await data(api.POST('/libraries/{id}/eject', params));
      else await data(api.DELETE('/libraries/{id}', params));
    },
    onSuccess: () => setConfirm(null),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.libraries });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.drives });
    },
  });
  const online = library.status === 'online';
  const taken = Math.max(0, library.total - library.free);
  const internal = library.kind === 'internal';
  const titleId = `library-${library.id}`;
  return (
    <li className="card console-card" aria-labelledby={titleId}>
      <div className="account-head">
        <h3 id={titleId}>{library.name}</h3>
        <span className={online ? 'tag tag-ok' : 'tag tag-warn'}>{LIBRARY_STATUS[library.status] ?? library.status}</span>
        {library.default && <span className="tag">New files go here</span>}
      </div>
      <p className="muted">{LIBRARY_KINDS[library.kind] ?? library.kind}</p>
      {online ? (
        <LibrarySpace library={library} taken={taken} />
      ) : (
        <p>
          {library.status === 'ejected'
            ? 'This drive was ejected. Plug it in again to bring its files back.'
            : 'Plug this drive in at this PC: its files come back by themselves.'}
        </p>
      )}
      {library.path && (
        <details className="drive-details">
          <summary>Where on this PC</summary>
          <p className="mono">{library.path}</p>
        </details>
      )}
      {act.isError && confirm === null && <Notice tone="error">{act.error.message}</Notice>}
      <div className="row">
        {!library.default && (
          <Button onClick={() => act.mutate('default')} disabled={act.isPending || !online} aria-label={`Put new files on ${library.name}`}>
            Put new files here
          </Button>
        )}
        {!internal && online && (
          <Button onClick={() => setConfirm('eject')} disabled={act.isPending} aria-label={`Eject ${library.name}`}>
            Eject
          </Button>
        )}
        {!internal && (
          <Button variant="danger" onClick={() => setConfirm('remove')} disabled={act.isPending} aria-label={`Remove ${library.name}`}>
            Remove
          </Button>
        )}
      </div>
      {confirm === 'eject' && (
        <ConfirmDialog
          title={`Eject ${library.name}?`}
          message={
            <>
              <p>
                Hearth finishes writing and closes the drive. Then you can unplug it. Its files show as "not connected" until it is back.
              </p>
              {act.isError && <Notice tone="error">{act.error.message}</Notice>}
            </>
          }
          confirm="Eject"
          busy={act.isPending}
          onConfirm={() => act.mutate('eject')}
          onClose={() => {
            act.reset();
            setConfirm(null);
          }}
        />
      )}
      {confirm === 'remove' && (
        <ConfirmDialog
          title={`Stop using ${library.name}?`}
          message={
            <>
              <p>
                Hearth stops keeping files here. Only a place with no family files in it can be removed; nothing on the drive is deleted.
              </p>
              {act.isError && <Notice tone="error">{removalRefusal(act.error)}</Notice>}
            </>
          }
          confirm="Remove"
          danger
          busy={act.isPending}
          onConfirm={() => act.mutate('remove')}
          onClose={() => {
            act.reset();
            setConfirm(null);
          }}
        />
      )}
    </li>
  );
}

function LibrarySpace({ library, taken }: { library: Library; taken: number }) {
  return (
    <>
      {/* What is not free, not the file system's "used": space the system keeps for itself
          counts as taken, so used and free add up to the total the owner sees. */}
      <UsageBar label={`Space on ${library.name}`} used={taken} total={library.total} hearth={library.content_bytes} />
      <dl className="facts facts-inline">
        <div>
          <dt>Family files</dt>
          <dd data-testid="family-files">{formatBytes(library.content_bytes)}</dd>
        </div>
        <div>
          <dt>Used</dt>
          <dd>
            {formatBytes(taken)} of {formatBytes(library.total)}
          </dd>
        </div>
        <div>
          <dt>Free</dt>
          <dd>{formatBytes(library.free)}</dd>
        </div>
      </dl>
    </>
  );
}

/**
 * Why a library cannot be removed yet, in the server's own words when it says which (files it
 * has no record of, or files kept in the holding folder until a given day): each needs
 * something else of the owner.
 */
function removalRefusal(error: Error): string {
  return error instanceof ApiError && error.code === 'library_not_empty' && error.serverMessage ? error.serverMessage : error.message;
}
