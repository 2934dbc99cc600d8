// The signed-in session, shared by the router, the shell and every feature that needs the current
// user or organization. The session call (GET /api/auth/me) is only made when a token is stored;
// without one the user is signed out ('No token found').
import type { AuthResponse, Session, UserOrganization } from '@crewline/contracts';
import * as paths from '@crewline/contracts/paths';
import { useQuery, type QueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';

import {
  apiRequest,
  clearStoredAuth,
  getAuthToken,
  getQueryFn,
  isApiStatus,
  setAuthToken,
  USER_DATA_KEY,
} from './api';
import { useAuthToken } from './auth-token';
import { queryKeys } from './queries/keys';

export { useAuthToken } from './auth-token';

/** Session results stay fresh for 5 minutes. */
const SESSION_STALE_TIME = 5 * 60 * 1000;

/** Organization id used when a session has none. */
const FALLBACK_ORGANIZATION_ID = 'demo-org-id';

/**
 * Same text as `messages.noToken` in @crewline/contracts. Not imported from there on purpose: every
 * screen but the signed-out landing page loads this module before its own code, and importing a value
 * from the contracts package pulls all of zod in.
 */
export const NO_TOKEN_MESSAGE = 'No token found';

const noTokenError = new Error(NO_TOKEN_MESSAGE);

const fetchSessionOrNull = getQueryFn<Session | null>({ on401: 'returnNull' });

async function fetchSession(context: Parameters<typeof fetchSessionOrNull>[0]): Promise<Session | null> {
  if (!getAuthToken()) throw new Error(NO_TOKEN_MESSAGE);
  let session: Session | null;
  try {
    session = await fetchSessionOrNull(context);
  } catch (error) {
    // 404: the token is valid but its membership ended (removed, or left in another tab).
    if (!isApiStatus(error, 404)) throw error;
    return recoverFromLostMembership(context.client);
  }
  // The stored token was rejected (revoked, expired): forget it so the user starts over signed out.
  if (!session) clearStoredAuth();
  return session;
}

/** The organization of the stored session, for naming the one that was lost. */
function lastKnownOrganization(queryClient: QueryClient): Session['organization'] | null {
  const cached = queryClient.getQueryData<Session | null>(queryKeys.session);
  if (cached) return cached.organization;
  try {
    const stored = localStorage.getItem(USER_DATA_KEY);
    return stored ? ((JSON.parse(stored) as Session).organization ?? null) : null;
  } catch {
    return null;
  }
}

/** Set when the session moved to another organization on its own; the shell then opens the dashboard. */
let dashboardRedirectPending = false;

/** True once after the session was moved to another organization (membership lost). */
export function takeDashboardRedirect(): boolean {
  const pending = dashboardRedirectPending;
  dashboardRedirectPending = false;
  return pending;
}

// The account calls of always-loaded code (the navigation's Log out, the verification banner) go
// through the plain client here, not the endpoint descriptors: those carry zod, which the shell's
// first JavaScript cannot afford. Their paths are the descriptors' own, from @crewline/contracts/paths.
const ignore = () => undefined;

/** POST /api/auth/logout: revokes the token server side; a failure (signed out already, offline) is ignored. */
export const revokeSessionToken = (): Promise<void> =>
  apiRequest('POST', paths.auth.logout).then(ignore, ignore);

/** POST /api/auth/resend-verification: a new verification link to the signed-in account's address. */
export const requestVerificationEmail = () =>
  apiRequest<{ message: string }>('POST', paths.auth.resendVerification);

/** POST /api/auth/switch-organization → { token, user, organization } for another organization of the user. */
export const switchOrganization = (organizationId: string) =>
  apiRequest<AuthResponse>('POST', paths.auth.switchOrganization, { organizationId });

/**
 * The session's membership ended: move to another organization of the user (the first one the
 * server lists), or sign out when there is none. Cached data of the lost organization is dropped.
 */
async function recoverFromLostMembership(queryClient: QueryClient): Promise<Session | null> {
  const lost = lastKnownOrganization(queryClient);
  const lostName = lost?.name ?? 'this organization';
  const dropOtherQueries = () =>
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });

  let organizations: UserOrganization[] = [];
  try {
    organizations = (await apiRequest<UserOrganization[]>('GET', paths.auth.organizations)) ?? [];
  } catch (error) {
    if (!isApiStatus(error, 401)) throw error;
  }
  const next = organizations.find((organization) => organization.id !== lost?.id);
  if (!next) {
    await revokeSessionToken();
    clearStoredAuth();
    dropOtherQueries();
    toast({ title: `You no longer have access to ${lostName}`, description: 'You have been signed out.' });
    return null;
  }

  const response = await switchOrganization(next.id);
  const session: Session = { user: response.user, organization: response.organization };
  dropOtherQueries();
  setAuthToken(response.token);
  try {
    localStorage.setItem(USER_DATA_KEY, JSON.stringify(session));
  } catch {
    // storage full or disabled: the session query holds the data
  }
  dashboardRedirectPending = true;
  toast({
    title: `You no longer have access to ${lostName}`,
    description: `You are now in ${response.organization.name}.`,
  });
  return session;
}

/** GET /api/auth/me — fresh for 5 minutes, never retried, not called without a stored token. */
function useSession() {
  const hasToken = !!useAuthToken();
  return useQuery<Session | null>({
    queryKey: queryKeys.session,
    queryFn: fetchSession,
    enabled: hasToken,
    staleTime: SESSION_STALE_TIME,
    retry: false,
  });
}

export interface AuthState {
  /** True while the first session call is in flight. */
  isLoading: boolean;
  isAuthenticated: boolean;
  session: Session | null;
  user: Session['user'] | null;
  organization: Session['organization'] | null;
  /** The organization id to use in API paths. */
  organizationId: string;
  error: Error | null;
}

/** The session as a simple state: signed in only when the session call succeeded with data. */
export function useAuth(): AuthState {
  const query = useSession();
  const hasToken = !!useAuthToken();
  const session = hasToken ? (query.data ?? null) : null;
  const error = hasToken ? query.error : noTokenError;
  return {
    isLoading: hasToken && query.isLoading,
    isAuthenticated: !!session,
    session,
    user: session?.user ?? null,
    organization: session?.organization ?? null,
    organizationId: session?.organization?.id || FALLBACK_ORGANIZATION_ID,
    error,
  };
}

/** Stores a fresh login/signup answer: token + {user, organization}, and primes the session query. */
export function storeSession(queryClient: QueryClient, response: AuthResponse): void {
  const session: Session = { user: response.user, organization: response.organization };
  // Data of a previous account must not leak into this one.
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
  setAuthToken(response.token);
  try {
    localStorage.setItem(USER_DATA_KEY, JSON.stringify(session));
  } catch {
    // storage full or disabled: the session query still holds the data
  }
  queryClient.setQueryData<Session | null>(queryKeys.session, session);
}
