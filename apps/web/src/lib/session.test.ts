import { messages } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { afterEach, expect, it, vi } from 'vitest';

import { NO_TOKEN_MESSAGE, requestVerificationEmail, revokeSessionToken } from './session';

afterEach(() => {
  vi.unstubAllGlobals();
});

it('uses the contracts wording for a missing token', () => {
  expect(NO_TOKEN_MESSAGE).toBe(messages.noToken);
});

it("calls the shell's account endpoints as their descriptors declare them", async () => {
  const fetchMock = vi.fn(async () => new Response('{"message":"Sent"}', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', { getItem: () => null });

  await expect(requestVerificationEmail()).resolves.toEqual({ message: 'Sent' });
  await revokeSessionToken();

  const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
  expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual([
    `${endpoints.auth.resendVerification.method} ${endpoints.auth.resendVerification.path}`,
    `${endpoints.auth.logout.method} ${endpoints.auth.logout.path}`,
  ]);
});

it('signs out locally even when the server cannot revoke the token', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('', { status: 401 })),
  );
  vi.stubGlobal('localStorage', { getItem: () => null });
  await expect(revokeSessionToken()).resolves.toBeUndefined();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('offline'))),
  );
  await expect(revokeSessionToken()).resolves.toBeUndefined();
});
