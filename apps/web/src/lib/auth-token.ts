// The stored sign-in token, on its own: the app's entry reads it to tell a signed-out visitor of the
// landing page (who needs no server data, so neither TanStack Query nor the API client) from
// everyone else. `lib/api.ts` re-exports all of it.
import { useSyncExternalStore } from 'react';

export const AUTH_TOKEN_KEY = 'authToken';
export const USER_DATA_KEY = 'userData';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (privacy mode, sandboxed frame)
  }
}

export function getAuthToken(): string | null {
  return storage()?.getItem(AUTH_TOKEN_KEY) || null;
}

const tokenListeners = new Set<() => void>();

function emitTokenChange(): void {
  tokenListeners.forEach((listener) => listener());
}

/**
 * Subscribe to changes of the stored token (this tab and other tabs), e.g. with
 * `useSyncExternalStore(subscribeAuthToken, getAuthToken)`.
 */
function subscribeAuthToken(listener: () => void): () => void {
  tokenListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === AUTH_TOKEN_KEY || event.key === null) listener();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    tokenListeners.delete(listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

export function setAuthToken(token: string): void {
  storage()?.setItem(AUTH_TOKEN_KEY, token);
  emitTokenChange();
}

/** Forgets the stored token and user data (logout, rejected token). */
export function clearStoredAuth(): void {
  const s = storage();
  s?.removeItem(AUTH_TOKEN_KEY);
  s?.removeItem(USER_DATA_KEY);
  emitTokenChange();
}

/** The stored token, re-rendering the caller when it changes (login, logout, another tab). */
export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribeAuthToken, getAuthToken, () => null);
}
