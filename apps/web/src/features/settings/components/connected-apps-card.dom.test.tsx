import type { OAuthGrant, Organization } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ConnectedAppsCard } from './connected-apps-card';

const organization = (role: string): Organization => ({
  id: 'org-1',
  name: 'Acme',
  slug: 'acme',
  plan: 'professional',
  role,
  trialEndsAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const grant = (patch: Partial<OAuthGrant>): OAuthGrant => ({
  id: 'g1',
  clientName: 'Claude',
  grantedBy: { id: 'u1', name: 'Ada Lovelace' },
  createdAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
  lastUsedAt: null,
  canRevoke: true,
  ...patch,
});

/** The grants the server holds; a DELETE removes one and is recorded. */
function grantsServer(start: OAuthGrant[], deleted: string[] = []) {
  let grants = start;
  server.use(
    http.get(`${ORIGIN}/api/oauth/grants`, () => HttpResponse.json(grants)),
    http.delete(`${ORIGIN}/api/oauth/grants/:id`, ({ params }) => {
      deleted.push(String(params.id));
      grants = grants.filter((g) => g.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

describe('Connected apps (Settings → API keys)', () => {
  it('lists the apps with who connected them and when they were last used, and revokes one after confirming', async () => {
    const deleted: string[] = [];
    grantsServer(
      [
        grant({ id: 'g1', lastUsedAt: new Date(Date.now() - 5 * 60_000).toISOString() }),
        grant({
          id: 'g2',
          clientName: 'ChatGPT',
          grantedBy: { id: 'u2', name: 'Bea Member' },
          canRevoke: false,
        }),
      ],
      deleted,
    );
    const user = userEvent.setup();
    renderWithApp(
      <>
        <ConnectedAppsCard organization={organization('member')} />
        <Toaster />
      </>,
    );

    const claude = await screen.findByRole('listitem', { name: 'Claude' });
    expect(claude.textContent).toContain('Connected by Ada Lovelace');
    expect(claude.textContent).toContain('Last used 5 minutes ago');
    const chatgpt = screen.getByRole('listitem', { name: 'ChatGPT' });
    expect(chatgpt.textContent).toContain('Never used');
    // Not theirs to revoke: no button.
    expect(within(chatgpt).queryByRole('button')).toBeNull();

    await user.click(within(claude).getByRole('button', { name: 'Revoke Claude' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Claude can no longer run Acme’s workflows');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('App disconnected')).toBeTruthy();
    expect(deleted).toEqual(['g1']);
    await screen.findByRole('listitem', { name: 'ChatGPT' });
    expect(screen.queryByRole('listitem', { name: 'Claude' })).toBeNull();
  });

  it('says when no app is connected', async () => {
    grantsServer([]);
    renderWithApp(<ConnectedAppsCard organization={organization('admin')} />);
    expect(await screen.findByText('No connected apps')).toBeTruthy();
  });
});
