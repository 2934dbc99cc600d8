import type { Approval, ApprovalDecisionRequest, RealtimeEvent } from '@crewline/contracts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { invalidateForRealtimeEvent } from '@/lib/realtime-invalidation';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { InboxPage } from './inbox-page';

const HOUR = 3600_000;

function approval(overrides: Partial<Approval> = {}): Approval {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    executionId: 'run-1',
    workflowId: 'wf-1',
    workflowName: 'Refunds',
    nodeId: 'approve',
    title: 'Refund 620 € to Ada?',
    message: 'Ada asks for a refund of order 42.',
    status: 'pending',
    policy: 'first',
    assignees: { roles: ['admin'] },
    fields: [
      { name: 'amount', label: 'Amount refunded', type: 'number', required: true },
      { name: 'reason', label: 'Reason', type: 'choice', options: ['damaged', 'late'] },
    ],
    decisions: [],
    createdAt: new Date(Date.now() - 2 * HOUR).toISOString(),
    expiresAt: new Date(Date.now() + 5 * HOUR).toISOString(),
    decidedAt: null,
    canDecide: true,
    ...overrides,
  };
}

/** GET /api/approvals answered by its status; each request's query is recorded. */
function answerApprovals(
  lists: { pending?: () => Approval[]; decided?: () => Approval[] },
  asked: string[] = [],
) {
  return http.get(`${ORIGIN}/api/approvals`, ({ request }) => {
    const url = new URL(request.url);
    asked.push(url.search);
    const status = url.searchParams.get('status') ?? 'pending';
    const list = status === 'decided' ? lists.decided : lists.pending;
    return HttpResponse.json(list ? list() : []);
  });
}

function answerDecision(
  reply: (body: ApprovalDecisionRequest) => Response,
  sent: ApprovalDecisionRequest[] = [],
) {
  return http.post(`${ORIGIN}/api/approvals/:id/decision`, async ({ request }) => {
    const body = (await request.json()) as ApprovalDecisionRequest;
    sent.push(body);
    return reply(body);
  });
}

describe('the Inbox', () => {
  it('lists what waits for me, oldest first, with the run it comes from and when it times out', async () => {
    const asked: string[] = [];
    const older = approval({
      id: 'a-old',
      title: 'Send the contract?',
      createdAt: new Date(Date.now() - 26 * HOUR).toISOString(),
      expiresAt: null,
    });
    server.use(answerApprovals({ pending: () => [older, approval()] }, asked));
    renderWithApp(<InboxPage />);

    expect(await screen.findByRole('heading', { name: 'Inbox', level: 1 })).toBeTruthy();
    const cards = await screen.findAllByTestId('approval-card');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Send the contract?',
      'Refund 620 € to Ada?',
    ]);
    expect(asked[0]).toBe('?status=pending&mine=true');
    const card = cards[1]!;
    expect(within(card).getByText('Ada asks for a refund of order 42.')).toBeTruthy();
    const link = within(card).getByRole('link', { name: 'Refunds' });
    expect(link.getAttribute('href')).toBe('/workflows?tab=executions&run=run-1');
    expect(within(card).getByTestId('approval-expires').textContent).toBe('Times out in 5 hours');
    expect(within(cards[0]!).queryByTestId('approval-expires')).toBeNull();
    expect(within(card).getByRole('textbox', { name: 'Comment' })).toBeTruthy();
  });

  it('says so when nothing waits', async () => {
    server.use(answerApprovals({ pending: () => [] }));
    renderWithApp(<InboxPage />);
    expect(await screen.findByText('Nothing waits for you')).toBeTruthy();
  });

  it('approves with a comment and a form field: the body says so, and the card shows the outcome', async () => {
    const user = userEvent.setup();
    const sent: ApprovalDecisionRequest[] = [];
    const waiting = approval();
    server.use(
      answerApprovals({ pending: () => [waiting] }),
      answerDecision(
        (body) =>
          HttpResponse.json(
            approval({
              status: 'approved',
              canDecide: false,
              decidedAt: new Date().toISOString(),
              decisions: [
                {
                  userId: 'u1',
                  userName: 'Grace',
                  decision: 'approve',
                  comment: body.comment ?? null,
                  fields: body.fields ?? {},
                  at: new Date().toISOString(),
                  via: 'inbox',
                },
              ],
            }),
          ),
        sent,
      ),
    );
    renderWithApp(<InboxPage />);
    const card = await screen.findByTestId('approval-card');

    await user.type(within(card).getByRole('textbox', { name: /Amount refunded/ }), '620');
    await user.selectOptions(within(card).getByRole('combobox', { name: 'Reason' }), 'damaged');
    await user.type(within(card).getByRole('textbox', { name: 'Comment' }), 'Parcel arrived broken');
    await user.click(within(card).getByRole('button', { name: 'Approve' }));

    expect((await within(card).findByTestId('approval-outcome')).textContent).toContain(
      'You approved · Approved',
    );
    expect(sent).toEqual([
      {
        decision: 'approve',
        via: 'inbox',
        comment: 'Parcel arrived broken',
        fields: { amount: 620, reason: 'damaged' },
      },
    ]);
  });

  it('checks a required field before sending: its message shows under it and nothing is sent', async () => {
    const user = userEvent.setup();
    const sent: ApprovalDecisionRequest[] = [];
    server.use(
      answerApprovals({ pending: () => [approval()] }),
      answerDecision(() => HttpResponse.json(approval()), sent),
    );
    renderWithApp(<InboxPage />);
    const card = await screen.findByTestId('approval-card');
    await user.click(within(card).getByRole('button', { name: 'Approve' }));

    const field = within(card).getAllByTestId('approval-field')[0]!;
    expect(within(field).getByTestId('approval-field-error').textContent).toBe('Amount refunded is required');
    expect(within(field).getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it('rejects without the required field (a rejection needs no answers)', async () => {
    const user = userEvent.setup();
    const sent: ApprovalDecisionRequest[] = [];
    server.use(
      answerApprovals({ pending: () => [approval()] }),
      answerDecision(() => HttpResponse.json(approval({ status: 'rejected', canDecide: false })), sent),
    );
    renderWithApp(<InboxPage />);
    const card = await screen.findByTestId('approval-card');
    await user.click(within(card).getByRole('button', { name: 'Reject' }));
    expect((await within(card).findByTestId('approval-outcome')).textContent).toContain(
      'You rejected · Rejected',
    );
    expect(sent).toEqual([{ decision: 'reject', via: 'inbox' }]);
  });

  it('shows the server’s refusal in the card: already decided (409)', async () => {
    const user = userEvent.setup();
    server.use(
      answerApprovals({ pending: () => [approval({ fields: [] })] }),
      answerDecision(() =>
        HttpResponse.json({ message: 'This approval was already decided' }, { status: 409 }),
      ),
    );
    renderWithApp(<InboxPage />);
    const card = await screen.findByTestId('approval-card');
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    expect((await within(card).findByRole('alert')).textContent).toBe('This approval was already decided');
    // Still decidable here: the buttons stay for a second look.
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeTruthy();
  });

  it('shows a field the server refused (400) under that field', async () => {
    const user = userEvent.setup();
    server.use(
      answerApprovals({ pending: () => [approval()] }),
      answerDecision(() =>
        HttpResponse.json(
          { message: 'Invalid form answers', errors: { amount: 'Amount refunded must be at most 500' } },
          { status: 400 },
        ),
      ),
    );
    renderWithApp(<InboxPage />);
    const card = await screen.findByTestId('approval-card');
    await user.type(within(card).getByRole('textbox', { name: /Amount refunded/ }), '620');
    await user.click(within(card).getByRole('button', { name: 'Approve' }));

    const field = within(card).getAllByTestId('approval-field')[0]!;
    expect((await within(field).findByTestId('approval-field-error')).textContent).toBe(
      'Amount refunded must be at most 500',
    );
    expect(within(card).getByRole('alert').textContent).toBe('Invalid form answers');
  });

  it('shows a newly requested approval when its event arrives', async () => {
    let pending: Approval[] = [];
    server.use(answerApprovals({ pending: () => pending }));
    const { queryClient } = renderWithApp(<InboxPage />);
    expect(await screen.findByText('Nothing waits for you')).toBeTruthy();

    pending = [approval()];
    const event: RealtimeEvent = {
      type: 'approval_requested',
      organizationId: 'org-1',
      executionId: 'run-1',
      workflowId: 'wf-1',
      approvalId: pending[0]!.id,
    };
    // What the app's realtime provider does with every event (lib/realtime.tsx).
    act(() => invalidateForRealtimeEvent(queryClient, event));
    expect(await screen.findByRole('heading', { name: 'Refund 620 € to Ada?' })).toBeTruthy();
  });

  it('lists the decided ones with who decided, when, from where, the comment and the answers', async () => {
    const user = userEvent.setup();
    const decided = approval({
      status: 'approved',
      canDecide: false,
      decidedAt: '2026-01-02T09:00:00.000Z',
      decisions: [
        {
          userId: 'u2',
          userName: 'Grace Hopper',
          decision: 'approve',
          comment: 'Fine by me',
          fields: { amount: 620 },
          at: '2026-01-02T09:00:00.000Z',
          via: 'email',
        },
      ],
    });
    const asked: string[] = [];
    server.use(answerApprovals({ pending: () => [], decided: () => [decided] }, asked));
    renderWithApp(<InboxPage />);
    await screen.findByText('Nothing waits for you');
    await user.click(screen.getByRole('tab', { name: 'Decided' }));

    const card = await screen.findByTestId('decided-approval-card');
    expect(asked).toContain('?status=decided');
    const entry = within(card).getByTestId('approval-decision');
    expect(entry.textContent).toContain('Approved');
    expect(entry.textContent).toContain('by Grace Hopper');
    expect(entry.textContent).toContain('via Email link');
    expect(within(entry).getByTestId('approval-decision-comment').textContent).toBe('“Fine by me”');
    expect(entry.textContent).toContain('Amount refunded620');
  });
});
