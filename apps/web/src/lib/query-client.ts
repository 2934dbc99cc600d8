import { QueryCache, QueryClient } from '@tanstack/react-query';

import { queryKeys } from './queries/keys';
import { getByQueryKey } from './queries/query-fn';

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A 401 on any data query means the token is gone server side (logout elsewhere, expiry):
      // re-check the session, which then routes the user to /login.
      onError: (error, query) => {
        if (query.queryKey[0] === queryKeys.session[0]) return;
        if (error instanceof Error && error.message.startsWith('401:')) {
          void client.invalidateQueries({ queryKey: queryKeys.session });
        }
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getByQueryKey,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
