import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client.ts';

export const accountKeys = {
  me: ['me'] as const,
  sessions: ['sessions'] as const,
};

export function useMe() {
  return useQuery({ queryKey: accountKeys.me, queryFn: () => data(api.GET('/me')) });
}

export function useSessions() {
  return useQuery({ queryKey: accountKeys.sessions, queryFn: async () => (await data(api.GET('/sessions'))).items });
}
