import type { Approval, ApprovalDecisionRequest, Execution, ExecutionSummary } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { anExecution } from '@/testing/executions';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ExecutionDetailsDialog } from './execution-details-dialog';

const waitingRun: Execution = anExecution({
  id: 'run-2222',
  status: 'waiting',
  waiting: {
    kind: 'approval',
    nodeId: 'approve',
    title: 'Refund 620 € to Ada?',
    since: '2026-01-01T10:00:00.000Z',
    until: null,
    approvalId: 'ap-1',
  },
});

const pending: Approval = {
  id: 'ap-1',
  executionId: waitingRun.id,
  workflowId: 'wf-1',
  workflowName: 'Refunds',
  nodeId: 'approve',
  title: 'Refund 620 € to Ada?',
  message: 'Ada asks for a refund.',
  status: 'pending',
  policy: 'first',
  assignees: { roles: ['admin'] },
  fields: [{ name: 'note', label: 'Note to the customer', type: 'text' }],
  decisions: [],
  createdAt: '2026-01-01T10:00:00.000Z',
  expiresAt: null,
  decidedAt: null,
  canDecide: true,
};

const summary = (run: Execution) => ({ ...run, output: {}, steps: undefined }) as unknown as ExecutionSummary;

function answerRunApprovals(lists: { pending: Approval[]; decided: Approval[] }) {
  return http.get(`${ORIGIN}/api/approvals`, ({ request }) => {
    const params = new URL(request.url).searchParams;
    if (params.get('executionId') !== waitingRun.id) return HttpResponse.json([]);
    return HttpResponse.json(params.get('status') === 'decided' ? lists.decided : lists.pending);
  });
}

function renderDetails(run: Execution) {
  return renderWithApp(
    <ExecutionDetailsDialog execution={summary(run)} workflowName="Refunds" open onOpenChange={() => {}} />,
  );
}

describe('a run’s approvals in its details', () => {
  it('shows what a waiting run waits for, and approves from the run view', async () => {
    const user = userEvent.setup();
    const sent: ApprovalDecisionRequest[] = [];
    server.use(
      answerGet<Execution>(`/api/executions/${waitingRun.id}`, waitingRun),
      answerRunApprovals({ pending: [pending], decided: [] }),
      http.post(`${ORIGIN}/api/approvals/ap-1/decision`, async ({ request }) => {
        sent.push((await request.json()) as ApprovalDecisionRequest);
        return HttpResponse.json({ ...pending, status: 'approved', canDecide: false });
      }),
    );
    renderDetails(waitingRun);
    const section = await screen.findByTestId('execution-approvals');
    expect(within(section).getByTestId('execution-waiting').textContent).toBe(
      'Waiting for approval · Refund 620 € to Ada?',
    );
    const approval = await within(section).findByTestId('run-approval');
    expect(within(approval).getByText('Ada asks for a refund.')).toBeTruthy();
    expect(screen.getByTestId('execution-status').textContent).toBe('Waiting');

    await user.type(within(approval).getByRole('textbox', { name: 'Note to the customer' }), 'On its way');
    await user.click(within(approval).getByRole('button', { name: 'Approve' }));
    expect((await within(approval).findByTestId('approval-outcome')).textContent).toContain('You approved');
    expect(sent).toEqual([{ decision: 'approve', via: 'run', fields: { note: 'On its way' } }]);
  });

  it('says who it waits for when the viewer may not decide', async () => {
    server.use(
      answerGet<Execution>(`/api/executions/${waitingRun.id}`, waitingRun),
      answerRunApprovals({ pending: [{ ...pending, canDecide: false }], decided: [] }),
    );
    renderDetails(waitingRun);
    const approval = await screen.findByTestId('run-approval');
    expect(within(approval).getByTestId('run-approval-waiting-for').textContent).toBe('Waiting for admins');
    expect(within(approval).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('lists the decided approvals for the audit, and the approval step’s decisions in its inspector', async () => {
    const user = userEvent.setup();
    const decision = {
      userId: 'u2',
      decision: 'approve' as const,
      comment: 'Fine by me',
      fields: { note: 'Sorry!' },
      at: '2026-01-01T11:00:00.000Z',
      via: 'email' as const,
    };
    const done: Execution = {
      ...waitingRun,
      status: 'completed',
      waiting: null,
      completedAt: '2026-01-01T11:00:01.000Z',
      output: {
        approve: {
          content: '',
          kind: 'approval',
          data: { decision: 'approved', decisions: [decision], fields: { note: 'Sorry!' } },
          metadata: { agentName: 'Approve refund', role: '', model: '' },
          executionTime: 3_600_000,
          usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        },
      },
    };
    const decided: Approval = {
      ...pending,
      status: 'approved',
      canDecide: false,
      decidedAt: decision.at,
      decisions: [{ ...decision, userName: 'Grace Hopper' }],
    };
    server.use(
      answerGet<Execution>(`/api/executions/${waitingRun.id}`, done),
      answerRunApprovals({ pending: [], decided: [decided] }),
    );
    renderDetails(done);

    const audit = await screen.findByTestId('run-approval-audit');
    const entry = within(audit).getByTestId('approval-decision');
    expect(entry.textContent).toContain('Approved');
    expect(entry.textContent).toContain('by Grace Hopper');
    expect(entry.textContent).toContain('via Email link');
    expect(entry.textContent).toContain('Note to the customerSorry!');
    expect(within(entry).getByTestId('approval-decision-comment').textContent).toBe('“Fine by me”');

    const step = screen.getByTestId('agent-output');
    expect(within(step).getByTestId('agent-output-content').textContent).toBe('Approved');
    await user.click(within(step).getByRole('button', { name: /Inspect step/ }));
    expect(within(step).getByTestId('step-approval-decision').textContent).toBe('Decision: Approved');
    const stepEntry = within(step).getByTestId('approval-decision');
    expect(stepEntry.textContent).toContain('by Grace Hopper');
    expect(stepEntry.textContent).toContain('via Email link');
    expect(within(step).getByRole('group', { name: 'Form answers' }).textContent).toContain('"Sorry!"');
  });
});
