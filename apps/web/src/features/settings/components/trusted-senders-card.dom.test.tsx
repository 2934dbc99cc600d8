import type { OrganizationSettings } from '@crewline/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { TRUSTED_SENDERS_HELP, TRUSTED_SENDERS_READ_ONLY, TrustedSendersCard } from './trusted-senders-card';

const URL = '/api/organization/settings';

/** PUT answered as the server does: tidied, or a 400 naming the first entry that is not a domain. */
function answerPut(sent: { trustedSenderDomains: string[] }[]) {
  return http.put(`${ORIGIN}${URL}`, async ({ request }) => {
    const body = (await request.json()) as { trustedSenderDomains: string[] };
    sent.push(body);
    const domains = body.trustedSenderDomains.map((d) => d.trim().toLowerCase());
    const bad = domains.find((d) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d));
    if (bad !== undefined)
      return HttpResponse.json(
        { message: `"${bad}" is not a domain name: write it like example.com` },
        { status: 400 },
      );
    return HttpResponse.json({ trustedSenderDomains: [...new Set(domains)], approvalNotificationUrl: null });
  });
}

describe('the trusted sender domains (Settings → Organization)', () => {
  it('lets an admin write one domain a line and save them, and shows what the server refuses', async () => {
    const sent: { trustedSenderDomains: string[] }[] = [];
    server.use(
      answerGet<OrganizationSettings>(URL, {
        trustedSenderDomains: ['contoso.com'],
        approvalNotificationUrl: null,
      }),
      answerPut(sent),
    );
    const user = userEvent.setup();
    renderWithApp(<TrustedSendersCard manager />);

    expect(screen.getByText(TRUSTED_SENDERS_HELP)).toBeTruthy();
    const field = (await screen.findByRole('textbox', {
      name: 'Trusted sender domains',
    })) as HTMLTextAreaElement;
    await waitFor(() => expect(field.value).toBe('contoso.com'));
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    // Nothing changed yet: nothing to save.
    expect(save.disabled).toBe(true);

    await user.click(field);
    await user.keyboard('{End}{Enter}https://fabrikam.com');
    await user.click(save);
    expect(await screen.findByText(/"https:\/\/fabrikam.com" is not a domain name/)).toBeTruthy();

    await user.clear(field);
    await user.type(field, 'contoso.com{Enter}Fabrikam.com{Enter}{Enter}');
    await user.click(save);
    await waitFor(() => expect(field.value).toBe('contoso.com\nfabrikam.com'));
    expect(sent.at(-1)).toEqual({ trustedSenderDomains: ['contoso.com', 'Fabrikam.com'] });
    expect(screen.queryByText(/is not a domain name/)).toBeNull();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a member the domains read-only, with no field and no Save', async () => {
    server.use(
      answerGet<OrganizationSettings>(URL, {
        trustedSenderDomains: ['contoso.com', 'partner.example'],
        approvalNotificationUrl: null,
      }),
    );
    renderWithApp(<TrustedSendersCard manager={false} />);

    const list = await screen.findByRole('list', { name: 'Trusted sender domains' });
    expect(list.textContent).toContain('contoso.com');
    expect(list.textContent).toContain('partner.example');
    expect(screen.getByText(TRUSTED_SENDERS_READ_ONLY)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('tells a member when no domain is trusted', async () => {
    server.use(
      answerGet<OrganizationSettings>(URL, { trustedSenderDomains: [], approvalNotificationUrl: null }),
    );
    renderWithApp(<TrustedSendersCard manager={false} />);
    expect(
      await screen.findByText('No trusted sender domains: every email starts an untrusted run.'),
    ).toBeTruthy();
  });
});
