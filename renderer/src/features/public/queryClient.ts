import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/error-messages.ts';

/**
 * The public page's own cache, apart from the signed-in app's: signing out in another tab
 * clears that one, and nothing a visitor loads may mix with an account's data.
 */
export const publicQueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx is the link's state (locked, expired, gone): show it, do not ask again.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
