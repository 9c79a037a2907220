import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import type { Answer } from '../../../api/types.ts';
import { consoleKeys } from '../keys.ts';

export type AdminUser = Answer<'/admin/users', 'get'>['items'][number];
export type Invite = Answer<'/admin/invites', 'post', 201>;

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

export function useAdminUsers() {
  return useQuery({
    queryKey: consoleKeys.users,
    queryFn: () =>
      allPages((cursor) => data(api.GET('/admin/users', { params: { query: { limit: 1000, ...(cursor ? { cursor } : {}) } } }))),
  });
}

export function useInvites() {
  return useQuery({
    queryKey: consoleKeys.invites,
    queryFn: () =>
      allPages((cursor) => data(api.GET('/admin/invites', { params: { query: { limit: 1000, ...(cursor ? { cursor } : {}) } } }))),
  });
}
