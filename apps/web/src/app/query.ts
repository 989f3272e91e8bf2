import { QueryClient } from '@tanstack/react-query';
import { session } from './store/session';

export const queryClient = new QueryClient({
  defaultOptions: {
    // the http client already told the person what failed: do not repeat the call behind their back
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// nothing of one user's data outlives their session
session.onClear(() => queryClient.clear());
