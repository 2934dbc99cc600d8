import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

import { parseApiError } from './api';
import { queryKeys } from './queries/keys';
import { getByQueryKey } from './queries/query-fn';

/**
 * Same text as `teamMessages.organizationNotFound` in @crewline/contracts (not imported: every screen
 * but the signed-out landing page loads this module before its own code, and the contracts pull in
 * zod). A session whose membership ended gets it from every tenant route.
 */
export const ORGANIZATION_NOT_FOUND_MESSAGE = 'Organization not found';

/**
 * Whether a failed request means the session must be re-checked: a 401 (the token is gone server
 * side: logout elsewhere, expiry) or a 404 'Organization not found' (the membership ended).
 */
export function shouldRecheckSession(error: unknown): boolean {
  return parseApiError(error).status === 401 || isOrganizationGone(error);
}

/** A 404 'Organization not found': the session's membership ended. */
export function isOrganizationGone(error: unknown): boolean {
  const { status, message } = parseApiError(error);
  return status === 404 && message === ORGANIZATION_NOT_FOUND_MESSAGE;
}

export function createQueryClient(): QueryClient {
  const recheckSession = () => void client.invalidateQueries({ queryKey: queryKeys.session });
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // Re-check the session, which then routes the user to /login, or (membership ended) to
      // another organization of theirs.
      onError: (error, query) => {
        if (query.queryKey[0] === queryKeys.session[0]) return;
        if (shouldRecheckSession(error)) recheckSession();
      },
    }),
    // A mutation's 401 is the form's to show (a wrong password); only a lost membership re-checks.
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isOrganizationGone(error)) recheckSession();
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
