import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';
import type { Answer } from '../../api/types.ts';
import { approvalKeys } from '../approvals/queries.ts';

// The waiting list is the app's (the badge on Manage reads it on every page); the console shows it.
export { usePendingDevices } from '../approvals/queries.ts';

export type AdminUser = Answer<'/admin/users', 'get'>['items'][number];
export type AdminSession = Answer<'/admin/sessions', 'get'>['items'][number];
export type PendingDevice = Answer<'/devices/pending', 'get'>['items'][number];
export type Invite = Answer<'/admin/invites', 'post', 201>;
export type Library = Answer<'/libraries', 'get'>['items'][number];
export type DrivesAnswer = Answer<'/admin/drives', 'get'>;
export type Drive = DrivesAnswer['items'][number];
export type Capability = DrivesAnswer['capabilities']['format'];
export type Settings = Answer<'/server/settings', 'get'>;
export type AdminStatus = Answer<'/admin/status', 'get'>;
export type FormatResult = Answer<'/admin/drives/{id}/format', 'post'>;
/** A drive with what a read-only look found on it; `contents` is null when the server could not look. */
export type DriveDetail = Answer<'/admin/drives/{id}', 'get'>;
export type DriveContents = NonNullable<DriveDetail['contents']>;

/** One key factory for the console's server state. */
export const consoleKeys = {
  all: ['console'] as const,
  pending: approvalKeys.pending,
  sessions: ['console', 'sessions'] as const,
  users: ['console', 'users'] as const,
  invites: ['console', 'invites'] as const,
  libraries: ['console', 'libraries'] as const,
  drives: ['console', 'drives'] as const,
  // Not under `drives`: refreshing the list must not read a drive's contents again (a look may mount it).
  drive: (id: string) => ['console', 'drive-contents', id] as const,
  settings: ['console', 'settings'] as const,
  status: ['console', 'status'] as const,
  network: ['console', 'network'] as const,
};

/** Every page of a paged admin list (a family has a handful of accounts and invites). */
async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return items;
}

export function useAdminSessions() {
  return useQuery({ queryKey: consoleKeys.sessions, queryFn: async () => (await data(api.GET('/admin/sessions'))).items });
}

export function useAdminUsers() {
  return useQuery({
    queryKey: consoleKeys.users,
    queryFn: () => allPages((cursor) => data(api.GET('/admin/users', { params: { query: { limit: 1000, ...(cursor ? { cursor } : {}) } } }))),
  });
}

export function useInvites() {
  return useQuery({
    queryKey: consoleKeys.invites,
    queryFn: () => allPages((cursor) => data(api.GET('/admin/invites', { params: { query: { limit: 1000, ...(cursor ? { cursor } : {}) } } }))),
  });
}

export function useLibraries() {
  return useQuery({ queryKey: consoleKeys.libraries, queryFn: async () => (await data(api.GET('/libraries'))).items });
}

export function useDrives() {
  return useQuery({ queryKey: consoleKeys.drives, queryFn: () => data(api.GET('/admin/drives')) });
}

export function useDriveDetail(id: string) {
  return useQuery({ queryKey: consoleKeys.drive(id), queryFn: () => data(api.GET('/admin/drives/{id}', { params: { path: { id } } })), staleTime: 0 });
}

export function useSettings() {
  return useQuery({ queryKey: consoleKeys.settings, queryFn: () => data(api.GET('/server/settings')) });
}

export function useAdminStatus() {
  return useQuery({ queryKey: consoleKeys.status, queryFn: () => data(api.GET('/admin/status')) });
}

export function useNetwork() {
  return useQuery({ queryKey: consoleKeys.network, queryFn: () => data(api.GET('/admin/network')) });
}
