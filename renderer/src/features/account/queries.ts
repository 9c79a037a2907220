import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';

/** The account page's own server state; the account itself is the app's `meQuery` (api/queries.ts). */
export const accountKeys = {
  sessions: ['sessions'] as const,
  partners: ['partner-shares'] as const,
};

export function useSessions() {
  return useQuery({ queryKey: accountKeys.sessions, queryFn: async () => (await data(api.GET('/sessions'))).items });
}

/** The partner shares the account gives and receives: a family has a handful, one page. */
export function usePartnerShares() {
  return useQuery({ queryKey: accountKeys.partners, queryFn: async () => (await data(api.GET('/partner-shares'))).items });
}
