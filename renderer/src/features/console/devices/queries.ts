import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { pendingDevicesQuery } from '../../../api/queries.ts';
import type { Answer } from '../../../api/types.ts';
import { consoleKeys } from '../keys.ts';

export type AdminSession = Answer<'/admin/sessions', 'get'>['items'][number];
export type PendingDevice = Answer<'/devices/pending', 'get'>['items'][number];

/** The waiting list is the app's (the badge on Manage reads it on every page); the console shows it. */
export function usePendingDevices() {
  return useQuery(pendingDevicesQuery);
}

export function useAdminSessions() {
  return useQuery({ queryKey: consoleKeys.sessions, queryFn: async () => (await data(api.GET('/admin/sessions'))).items });
}
