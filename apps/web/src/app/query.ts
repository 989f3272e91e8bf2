import { QueryClient } from '@tanstack/react-query';
import { session } from './store/session';

export const queryClient = new QueryClient({
  defaultOptions: {
    // the http client already told the person what failed: do not repeat the call behind their back
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// nothing of one user's data outlives their session. Dropped once the views that hold it are
// gone (the session's end unmounts them on React's next render): dropped at once, a view still
// mounted for that render would fetch its list again, without a token, and be refused (401).
session.onClear(() => {
  window.setTimeout(() => queryClient.clear(), 0);
});
