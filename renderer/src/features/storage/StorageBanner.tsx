import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { events } from '../../api/events.ts';
import { statusQuery } from '../../api/queries.ts';
import type { Status } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import './storage.css';

/**
 * Says at the top of every page when Hearth cannot save anything new (its disk is full, or the
 * system made it read-only), in words the family understands, and disappears by itself once
 * the server has room again: the server's `server.storage` event updates the status at once,
 * and while something is wrong the status is asked again every half minute as well.
 */
export function StorageBanner() {
  const queryClient = useQueryClient();
  const account = useSession();
  const status = useQuery({
    ...statusQuery,
    refetchInterval: (query) => (query.state.data && query.state.data.storage !== 'ok' ? 30_000 : false),
  });
  useEffect(
    () =>
      events.on((message) => {
        if (message.type !== 'server.storage') return;
        const { storage } = message.payload as { storage: Status['storage'] };
        queryClient.setQueryData(statusQuery.queryKey, (old) => (old ? { ...old, storage } : old));
      }),
    [queryClient],
  );
  const storage = status.data?.storage ?? 'ok';
  if (storage === 'ok') return null;
  const isOwner = account.kind === 'signed-in' && account.user.role === 'admin';
  return (
    <div className="storage-banner" role="status">
      <strong>{storage === 'full' ? 'Hearth is full.' : 'Hearth can only read its disk right now.'}</strong>{' '}
      {storage === 'full'
        ? 'New photos and files cannot be saved until some space is freed. Everything already saved is safe and opens as usual; uploads waiting here continue by themselves.'
        : 'Nothing new can be saved. Everything already saved still opens.'}
      {isOwner && (
        <span className="storage-banner-owner">
          {storage === 'full' ? (
            <>
              To make room: delete what is no longer needed and empty the trash, or give Hearth another drive in{' '}
              <Link to="/console/storage">Storage</Link>.
            </>
          ) : (
            <>The computer turned the disk read-only, which usually follows a disk error: have the disk checked, then restart Hearth.</>
          )}
        </span>
      )}
    </div>
  );
}
