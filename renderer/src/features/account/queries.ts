import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';

/** The account page's own server state; the account itself is the app's `meQuery` (api/queries.ts). */
export const accountKeys = {
  sessions: ['sessions'] as const,
  partners: ['partner-shares'] as const,
  drivePasswords: ['dav-passwords'] as const,
};

export function useSessions() {
  return useQuery({ queryKey: accountKeys.sessions, queryFn: async () => (await data(api.GET('/sessions'))).items });
}

/** The partner shares the account gives and receives: a family has a handful, one page. */
export function usePartnerShares() {
  return useQuery({ queryKey: accountKeys.partners, queryFn: async () => (await data(api.GET('/partner-shares'))).items });
}

/**
 * The drive passwords this account made, oldest first, with their last use: at most 20, one page.
 * Asked again each time the page opens: the computers change "last used" while the app looks elsewhere.
 */
export function useDrivePasswords() {
  return useQuery({
    queryKey: accountKeys.drivePasswords,
    queryFn: async () => (await data(api.GET('/me/dav-passwords'))).items,
    staleTime: 0,
  });
}
