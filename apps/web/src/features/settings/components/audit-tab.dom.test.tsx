import { AUDIT_NEXT_CURSOR_HEADER, type AuditEvent, type Member } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { AuditTab } from './audit-tab';

const ORG = 'org-1';

const event = (n: number, fields: Partial<AuditEvent> = {}): AuditEvent => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  at: `2026-12-0${n}T10:00:00.000Z`,
  actor: { id: 'u-ada', name: 'Ada Lovelace' },
  action: 'api_key.created',
  target: { type: 'api_key', id: `key-${n}`, name: `Key ${n}` },
  ip: '203.0.113.7',
  details: { prefix: `crw_${n}` },
  ...fields,
});

const members: Member[] = [
  {
    userId: 'u-ada',
    username: 'ada',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'owner',
    joinedAt: '2026-01-01T00:00:00.000Z',
  },
];

/** The log's server: two pages (the first with a cursor); each request's query is pushed onto `asked`. */
function auditServer(asked: URLSearchParams[], pages: AuditEvent[][]) {
  server.use(
    http.get(`${ORIGIN}/api/organizations/${ORG}/members`, () => HttpResponse.json(members)),
    http.get(`${ORIGIN}/api/audit`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      const page = query.get('cursor') === 'page-2' ? 1 : 0;
      const headers: Record<string, string> =
        page === 0 && pages.length > 1 ? { [AUDIT_NEXT_CURSOR_HEADER]: 'page-2' } : {};
      const filtered = query.get('action')
        ? pages[page].filter((e) => e.action === query.get('action'))
        : pages[page];
      return HttpResponse.json(filtered, { headers });
    }),
  );
}

describe('Settings → Audit', () => {
  it('lists the events with who, what, target and address, loads more by cursor and opens a row', async () => {
    const asked: URLSearchParams[] = [];
    auditServer(asked, [
      [
        event(3, {
          action: 'member.role_changed',
          target: { type: 'member', id: 'u-jane', name: 'Jane Doe' },
          details: { from: 'member', to: 'admin' },
        }),
        event(2),
      ],
      [
        event(1, {
          actor: null,
          action: 'billing.plan_changed',
          target: { type: 'subscription', id: ORG, name: 'starter' },
          ip: null,
        }),
      ],
    ]);
    renderWithApp(<AuditTab organizationId={ORG} />);

    const table = await screen.findByRole('table');
    expect(within(table).getByText('Changed a role')).toBeTruthy();
    expect(within(table).getByText('Jane Doe')).toBeTruthy();
    expect(within(table).getAllByText('Ada Lovelace')).toHaveLength(2);
    expect(within(table).getAllByText('203.0.113.7')).toHaveLength(2);
    expect(screen.queryByText('System')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('System')).toBeTruthy();
    expect(within(table).getByText('Changed the plan')).toBeTruthy();
    expect(asked.at(-1)?.get('cursor')).toBe('page-2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Show details of Changed a role' }));
    expect(screen.getByText('member.role_changed')).toBeTruthy();
    expect(screen.getByText('admin')).toBeTruthy();
  });

  it('filters by action and says when nothing matches', async () => {
    const asked: URLSearchParams[] = [];
    auditServer(asked, [[event(2)]]);
    renderWithApp(<AuditTab organizationId={ORG} />);
    await screen.findByRole('table');

    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Revoked an API key' }));
    expect(await screen.findByText('No events match these filters')).toBeTruthy();
    expect(asked.at(-1)?.get('action')).toBe('api_key.revoked');
    await userEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(await screen.findByRole('table')).toBeTruthy();
  });

  it('says when the log could not be loaded, and when nothing is recorded yet', async () => {
    server.use(
      http.get(`${ORIGIN}/api/organizations/${ORG}/members`, () => HttpResponse.json(members)),
      http.get(`${ORIGIN}/api/audit`, () => HttpResponse.json({ message: 'Only owners' }, { status: 403 })),
    );
    const { unmount } = renderWithApp(<AuditTab organizationId={ORG} />);
    expect(await screen.findByText('The audit log could not be loaded')).toBeTruthy();
    unmount();

    auditServer([], [[]]);
    renderWithApp(<AuditTab organizationId={ORG} />);
    expect(await screen.findByText('Nothing recorded yet')).toBeTruthy();
  });
});
