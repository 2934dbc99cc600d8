import type { ApprovalLinkDecision, ApprovalLinkView } from '@crewline/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ApprovalLinkPage } from './approval-link-page';

const view = (decision: 'approve' | 'reject', status: ApprovalLinkView['approval']['status'] = 'pending') =>
  ({
    approval: {
      title: 'Refund 120 € to Acme?',
      message: 'The customer was charged twice.',
      workflowName: 'Refunds',
      fields: [{ name: 'amount', label: 'Amount', type: 'number', required: true }],
      status,
      expiresAt: null,
    },
    decision,
    approver: { name: 'Cy Doe' },
  }) satisfies ApprovalLinkView;

const open = () =>
  renderWithApp(<ApprovalLinkPage />, { path: '/approvals/email/:token', url: '/approvals/email/tok' });

/** POST /api/approval-links/tok answered with `status` and `body`; the bodies sent are kept. */
function answerDecision(sent: ApprovalLinkDecision[], status: number, body: object) {
  return http.post(`${ORIGIN}/api/approval-links/tok`, async ({ request }) => {
    sent.push((await request.json()) as ApprovalLinkDecision);
    return HttpResponse.json(body, { status });
  });
}

describe('the approval link page', () => {
  it('asks for the form when approving, sends it with the comment, and says the run goes on', async () => {
    const sent: ApprovalLinkDecision[] = [];
    server.use(
      answerGet('/api/approval-links/tok', view('approve')),
      answerDecision(sent, 200, { status: 'approved' }),
    );
    const user = userEvent.setup();
    open();
    expect(await screen.findByRole('heading', { name: 'Refund 120 € to Acme?' })).toBeTruthy();
    expect(screen.getByText('You are about to approve')).toBeTruthy();
    expect(screen.getByText('Refunds')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Amount is required')).toBeTruthy();
    expect(sent).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '120');
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Checked');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('Done: the run goes on');
    expect(sent).toEqual([{ comment: 'Checked', fields: { amount: 120 } }]);
  });

  it('shows no form when rejecting, and the server’s refusal in place', async () => {
    const sent: ApprovalLinkDecision[] = [];
    server.use(
      answerGet('/api/approval-links/tok', view('reject')),
      answerDecision(sent, 409, { message: 'This approval was already decided' }),
    );
    const user = userEvent.setup();
    open();
    expect(await screen.findByText('You are about to reject')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /^Amount/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This approval was already decided');
    expect(sent).toEqual([{}]);
  });

  it('says why a used or expired link decides nothing', async () => {
    server.use(
      http.get(`${ORIGIN}/api/approval-links/tok`, () =>
        HttpResponse.json({ message: 'This link was already used' }, { status: 410 }),
      ),
    );
    open();
    expect((await screen.findByRole('alert')).textContent).toBe('This link was already used');
    expect(screen.queryByRole('button', { name: /Approve|Reject/ })).toBeNull();
  });
});
