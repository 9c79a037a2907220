import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { settingsQuery } from '../../../api/queries.ts';
import type { Answer } from '../../../api/types.ts';
import { consoleKeys } from '../keys.ts';

export type Settings = Answer<'/server/settings', 'get'>;
export type AdminStatus = Answer<'/admin/status', 'get'>;
export type Network = Answer<'/admin/network', 'get'>;
export type HomeHttps = Answer<'/admin/https', 'get'>;

/** The settings are the app's (sharing reads link reach from them, the gallery the trash's days); the console edits them. */
export function useSettings() {
  return useQuery(settingsQuery);
}

export function useAdminStatus() {
  return useQuery({ queryKey: consoleKeys.status, queryFn: () => data(api.GET('/admin/status')) });
}

export function useNetwork() {
  return useQuery({ queryKey: consoleKeys.network, queryFn: () => data(api.GET('/admin/network')) });
}

export function useHomeHttps() {
  return useQuery({ queryKey: consoleKeys.https, queryFn: () => data(api.GET('/admin/https')) });
}

/** "Check it works": the server looks at Tailscale again now; the Connect page shows what it saw. */
export function useCheckNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/admin/network/check')),
    onSuccess: (network) => queryClient.setQueryData(consoleKeys.network, network),
  });
}
