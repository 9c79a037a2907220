import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './error-messages.ts';

/** Server state lives here. A 4xx is an answer, not a hiccup: only network and 5xx are retried. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
