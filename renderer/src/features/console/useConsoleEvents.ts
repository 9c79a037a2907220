import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { events } from '../../api/events.ts';
import { settingsQuery } from '../../api/queries.ts';
import { consoleKeys } from './keys.ts';

/**
 * Keeps the console current while it is open: the sessions of a phone asking to connect, and
 * usage, settings and devices changed elsewhere. The app's frame owns the socket, and keeps
 * the waiting list current on every page.
 */
export function useConsoleEvents(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      events.on((message) => {
        const refresh = (key: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey: key });
        switch (message.type) {
          case 'device.pending':
          case 'device.approved':
          case 'device.denied':
            // The waiting list itself is kept live by the app's frame for every page
            // (approvals' useLivePendingDevices): read once, not once per listener.
            refresh(consoleKeys.sessions);
            break;
          case 'library.changed':
            refresh(consoleKeys.libraries);
            refresh(consoleKeys.drives);
            // Usage moved: so did someone's quota bar (quota.updated reaches only that account).
            refresh(consoleKeys.users);
            break;
          case 'server.settings_changed':
            refresh(settingsQuery.queryKey);
            break;
          case 'quota.updated':
            refresh(consoleKeys.users);
            break;
          case 'playback.queue':
            queryClient.setQueryData(consoleKeys.playback, (message.payload as { queue: unknown }).queue);
            break;
          case 'faces.progress':
            queryClient.setQueryData(consoleKeys.faces, (message.payload as { finding: unknown }).finding);
            break;
          case 'backup.health':
          case 'backup.progress':
            // The counts move; at the end a snapshot came and retention may have taken some (their lists share the key's prefix).
            refresh(consoleKeys.backups);
            break;
          default:
            break;
        }
      }),
    [queryClient],
  );
}
