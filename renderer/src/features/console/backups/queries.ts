import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import type { Answer } from '../../../api/types.ts';
import { consoleKeys } from '../keys.ts';

export type BackupOverview = Answer<'/admin/backup', 'get'>;
export type Destination = BackupOverview['destinations'][number];
export type BackupRun = NonNullable<Destination['last_run']>;
export type Snapshot = Answer<'/admin/backup/destinations/{id}/snapshots', 'get'>['items'][number];

/** Destinations and the run under way; kept current by backup.progress events (useConsoleEvents). */
export function useBackups() {
  return useQuery({ queryKey: consoleKeys.backups, queryFn: () => data(api.GET('/admin/backup')) });
}

export function useSnapshots(destinationId: string, enabled: boolean) {
  return useQuery({
    queryKey: consoleKeys.snapshots(destinationId),
    queryFn: () => data(api.GET('/admin/backup/destinations/{id}/snapshots', { params: { path: { id: destinationId } } })),
    enabled,
  });
}

export type SnapshotPerson = Answer<'/admin/backup/destinations/{id}/snapshots/{snapshot}/people', 'get'>['items'][number];
export type SnapshotNode = Answer<'/admin/backup/destinations/{id}/snapshots/{snapshot}/nodes', 'get'>['items'][number];

export function useSnapshotPeople(destinationId: string, snapshotId: string) {
  return useQuery({
    queryKey: [...consoleKeys.snapshots(destinationId), snapshotId, 'people'],
    queryFn: async () =>
      (
        await data(
          api.GET('/admin/backup/destinations/{id}/snapshots/{snapshot}/people', {
            params: { path: { id: destinationId, snapshot: snapshotId } },
          }),
        )
      ).items,
    staleTime: 60_000,
  });
}

/** A folder of a snapshot (or someone's top level), page by page. */
export function useSnapshotFolder(destinationId: string, snapshotId: string, userId: string | null, parentId: string | null) {
  return useInfiniteQuery({
    queryKey: [...consoleKeys.snapshots(destinationId), snapshotId, 'nodes', userId, parentId],
    queryFn: ({ pageParam }) =>
      data(
        api.GET('/admin/backup/destinations/{id}/snapshots/{snapshot}/nodes', {
          params: {
            path: { id: destinationId, snapshot: snapshotId },
            query: {
              ...(userId !== null && { user_id: userId }),
              ...(parentId !== null && { parent_id: parentId }),
              ...(pageParam !== null && { cursor: pageParam }),
              limit: 200,
            },
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    enabled: userId !== null,
  });
}

/** A run followed until it ends (a restore: the dialog shows its progress, then where the files went). */
export function useRun(runId: string | null) {
  return useQuery({
    queryKey: ['console', 'backup-run', runId],
    queryFn: () => data(api.GET('/admin/backup/runs/{id}', { params: { path: { id: runId! } } })),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data?.state === 'running' || query.state.data === undefined ? 500 : false),
  });
}
