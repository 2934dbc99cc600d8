import {
  oauthMessages,
  type OAuthConsentInfo,
  type OAuthConsentInput,
  type OAuthConsentResult,
  type Session,
  type UserOrganization,
} from '@crewline/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';
import { aSession } from '@/testing/session';

import { browser } from '../api/consent';
import { OAuthConsentPage } from './oauth-consent-page';

const session = aSession({ id: 'org-2', name: 'Beta', slug: 'beta' });
const organizations: UserOrganization[] = [
  { id: 'org-1', name: 'Acme', slug: 'acme', role: 'owner' },
  { id: 'org-2', name: 'Beta', slug: 'beta', role: 'member' },
];
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const redirectUri = 'https://claude.ai/api/mcp/auth_callback';
const url = `/oauth/consent?${new URLSearchParams({
  client_id: 'client-1',
  redirect_uri: redirectUri,
  code_challenge: challenge,
  state: 'st-1',
  resource: 'http://localhost:3000/mcp',
})}`;

function answers(sent: OAuthConsentInput[], result: (body: OAuthConsentInput) => OAuthConsentResult) {
  server.use(
    answerGet<Session>('/api/auth/me', session),
    answerGet<UserOrganization[]>('/api/auth/organizations', organizations),
    answerGet<OAuthConsentInfo>('/api/oauth/consent', { clientName: 'Claude', redirectHost: 'claude.ai' }),
    http.post(`${ORIGIN}/api/oauth/consent`, async ({ request }) => {
      const body = (await request.json()) as OAuthConsentInput;
      sent.push(body);
      return HttpResponse.json(result(body));
    }),
  );
}

beforeEach(() => setAuthToken('token-1'));
afterEach(() => {
  clearStoredAuth();
  vi.restoreAllMocks();
});

describe('the OAuth consent page', () => {
  it('names the app, offers the member’s organizations (the current one chosen) and sends Allow for the one picked', async () => {
    const sent: OAuthConsentInput[] = [];
    answers(sent, () => ({ redirectTo: `${redirectUri}?code=c1&state=st-1` }));
    const leave = vi.spyOn(browser, 'leave').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithApp(<OAuthConsentPage />, { url });

    expect(
      await screen.findByRole('heading', { name: 'Claude wants to use your Crewline workflows' }),
    ).toBeTruthy();
    expect(((await screen.findByRole('radio', { name: /Beta/ })) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: /Acme/ }));
    await user.click(screen.getByRole('button', { name: 'Allow' }));

    expect(await screen.findByText('Returning to claude.ai…')).toBeTruthy();
    expect(sent).toEqual([
      {
        clientId: 'client-1',
        redirectUri,
        codeChallenge: challenge,
        state: 'st-1',
        resource: 'http://localhost:3000/mcp',
        organizationId: 'org-1',
        allow: true,
      },
    ]);
    expect(leave).toHaveBeenCalledWith(`${redirectUri}?code=c1&state=st-1`);
  });

  it('sends Deny without an organization and goes back with the refusal', async () => {
    const sent: OAuthConsentInput[] = [];
    answers(sent, () => ({ redirectTo: `${redirectUri}?error=access_denied` }));
    const leave = vi.spyOn(browser, 'leave').mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithApp(<OAuthConsentPage />, { url });

    await user.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Returning to claude.ai…')).toBeTruthy();
    expect(sent[0]).toMatchObject({ allow: false });
    expect(sent[0]).not.toHaveProperty('organizationId');
    expect(leave).toHaveBeenCalledWith(`${redirectUri}?error=access_denied`);
  });

  it('shows the server’s refusal of an unknown app, and never offers Allow', async () => {
    server.use(
      answerGet<Session>('/api/auth/me', session),
      http.get(`${ORIGIN}/api/oauth/consent`, () =>
        HttpResponse.json({ message: oauthMessages.clientNotFound }, { status: 400 }),
      ),
    );
    renderWithApp(<OAuthConsentPage />, { url });
    expect((await screen.findByRole('alert')).textContent).toBe(oauthMessages.clientNotFound);
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });

  it('says a request without its parameters is invalid', async () => {
    server.use(answerGet<Session>('/api/auth/me', session));
    renderWithApp(<OAuthConsentPage />, { url: '/oauth/consent?client_id=x' });
    expect((await screen.findByRole('alert')).textContent).toBe(oauthMessages.badRequest);
  });
});
