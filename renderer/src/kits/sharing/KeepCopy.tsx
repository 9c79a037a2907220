import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, data } from '../../api/client.ts';
import { nodeKeys } from '../../api/queries.ts';
import { Notice } from '../../ui/Notice.tsx';

/**
 * "Keep a copy" of a file someone shared with this person, from a list's menu (Shared with me, a
 * shared folder): the server makes it their own file in "Kept copies", charged to them, without
 * a download and upload. Their own lists refresh, so the folder shows at once.
 */
export function useKeepCopy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.POST('/nodes/{id}/keep', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}

/** What a menu says once the copy is made (or why not), with the way to the copy (which closes the menu). */
export function KeptNotice({ keep, onLeave }: { keep: ReturnType<typeof useKeepCopy>; onLeave: () => void }) {
  if (keep.isPending) return <Notice>Keeping a copy…</Notice>;
  if (keep.isError) return <Notice tone="error">{`Could not keep a copy: ${keep.error.message}`}</Notice>;
  if (!keep.data) return null;
  const to = keep.data.parent_id ? `/files/${keep.data.parent_id}` : '/files';
  return (
    <Notice>
      Kept a copy in your files, in Kept copies. It counts towards your storage.{' '}
      <Link to={to} onClick={onLeave}>
        Open Kept copies
      </Link>
    </Notice>
  );
}
