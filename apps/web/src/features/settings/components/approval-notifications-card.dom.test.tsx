import type { OrganizationSettings } from '@crewline/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import {
  APPROVAL_NOTIFICATIONS_HELP,
  APPROVAL_NOTIFICATIONS_READ_ONLY,
  ApprovalNotificationsCard,
} from './approval-notifications-card';

const URL = '/api/organization/settings';

/** PUT answered as the server does: the URL shown as its origin, or a 400 for one that is not http(s). */
function answerPut(sent: unknown[]) {
  return http.put(`${ORIGIN}${URL}`, async ({ request }) => {
    const body = (await request.json()) as { approvalNotificationUrl: string | null };
    sent.push(body);
    const url = body.approvalNotificationUrl;
    if (url !== null && !/^https?:\/\//.test(url))
      return HttpResponse.json(
        { message: 'The notification URL must be a web address starting with https:// or http://' },
        { status: 400 },
      );
    return HttpResponse.json({
      trustedSenderDomains: [],
      approvalNotificationUrl: url && `${new globalThis.URL(url).origin}/…`,
    } satisfies OrganizationSettings);
  });
}

describe('the approval notification URL (Settings → Organization)', () => {
  it('lets an admin save a Slack URL, then shows only its origin, and remove it', async () => {
    const sent: unknown[] = [];
    server.use(
      answerGet<OrganizationSettings>(URL, { trustedSenderDomains: [], approvalNotificationUrl: null }),
      answerPut(sent),
    );
    const user = userEvent.setup();
    renderWithApp(<ApprovalNotificationsCard manager />);

    expect(screen.getByText(APPROVAL_NOTIFICATIONS_HELP)).toBeTruthy();
    expect(
      await screen.findByText('No notification URL: approvers hear of approvals by email and in the Inbox.'),
    ).toBeTruthy();
    const field = screen.getByRole('textbox', { name: 'Notification URL' }) as HTMLInputElement;
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await user.type(field, 'https://hooks.slack.com/services/T1/B2/secret');
    await user.click(save);
    const shown = await screen.findByText('https://hooks.slack.com/…');
    expect(shown.closest('p')?.textContent).toBe('Approvals are posted to https://hooks.slack.com/…');
    expect(sent.at(-1)).toEqual({ approvalNotificationUrl: 'https://hooks.slack.com/services/T1/B2/secret' });
    // The field is emptied: the secret is not left on the page.
    const next = screen.getByRole('textbox', { name: 'New notification URL' }) as HTMLInputElement;
    expect(next.value).toBe('');
    expect(document.body.textContent).not.toContain('secret');

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('No notification URL: approvers hear of approvals by email and in the Inbox.'),
    ).toBeTruthy();
    expect(sent.at(-1)).toEqual({ approvalNotificationUrl: null });
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it('shows what the server refuses', async () => {
    server.use(
      answerGet<OrganizationSettings>(URL, { trustedSenderDomains: [], approvalNotificationUrl: null }),
      answerPut([]),
    );
    const user = userEvent.setup();
    renderWithApp(<ApprovalNotificationsCard manager />);
    const field = await screen.findByRole('textbox', { name: 'Notification URL' });
    await user.type(field, 'ftp://example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The notification URL must be a web address starting with https:// or http://'),
    ).toBeTruthy();
    await waitFor(() => expect((field as HTMLInputElement).value).toBe('ftp://example.com/hook'));
  });

  it('shows a member where approvals go, read-only', async () => {
    server.use(
      answerGet<OrganizationSettings>(URL, {
        trustedSenderDomains: [],
        approvalNotificationUrl: 'https://contoso.webhook.office.com/…',
      }),
    );
    renderWithApp(<ApprovalNotificationsCard manager={false} />);
    expect(await screen.findByText('https://contoso.webhook.office.com/…')).toBeTruthy();
    expect(screen.getByText(APPROVAL_NOTIFICATIONS_READ_ONLY)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
