import { useQuery } from '@tanstack/react-query';
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
    queryFn: async () =>
      (await data(api.GET('/admin/backup/destinations/{id}/snapshots', { params: { path: { id: destinationId } } }))).items,
    enabled,
  });
}
