import { evaluationMessages, type EvalRun, type OrganizationRole, type Session } from '@crewline/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { agentFixture, at, openBuilder, workflowFixture } from '@/testing/builder';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { aSession } from '@/testing/session';

import type { EvaluationFailed } from '../../activation-answers';

const agents = [agentFixture({ id: 'a1', name: 'Researcher', role: 'Researches', goal: 'Facts' })];

const workflow = workflowFixture({
  name: 'Weekly report',
  status: 'draft',
  nodes: [
    { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
    { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Researcher' } },
    { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'end' },
  ],
  config: { activationGate: { evaluationId: 'ev-1', minPassRate: 0.8 } },
});

const evalRun = (fields: Partial<EvalRun>): EvalRun => ({
  id: 'er-1',
  evaluationId: 'ev-1',
  evaluationName: 'Answers stay right',
  workflowId: 'wf-1',
  versionLabel: 'Draft',
  version: null,
  datasetVersion: 1,
  status: 'running',
  reason: 'activation',
  concurrency: 5,
  progress: { done: 1, total: 2 },
  passRate: null,
  costUsd: 0,
  latencyMs: { p50: null, p95: null },
  scores: [],
  error: null,
  createdAt: at,
  completedAt: null,
  items: [],
  ...fields,
});

const refusal: EvaluationFailed = {
  code: 'evaluation_failed',
  message: evaluationMessages.evaluationFailed(0.5, 0.8),
  passRate: 0.5,
  minPassRate: 0.8,
  evalRunId: 'er-1',
  failedItems: [
    { itemId: 'it-2', input: { message: 'Beta prices' }, reason: 'Same answer: expected "Beta"' },
  ],
};

const running = {
  code: 'evaluation_running',
  message: evaluationMessages.evaluationRunning(0, 2),
  evalRunId: 'er-1',
};

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

/**
 * The builder on a gated draft for a viewer of `role`; each PUT takes the next of `answers` (a status
 * and body) and its body is kept; GET /api/eval-runs/er-1 answers `runs` one after another (the last
 * one again after that).
 */
async function openGated(
  role: OrganizationRole,
  answers: { status: number; body: unknown }[],
  runs: EvalRun[] = [],
) {
  const puts: Record<string, unknown>[] = [];
  const opened = await openBuilder({
    workflow,
    agents,
    handlers: [answerGet<Session>('/api/auth/me', aSession({ role }))],
  });
  server.use(
    http.put(`${ORIGIN}/api/workflows/wf-1`, async ({ request }) => {
      puts.push((await request.json()) as Record<string, unknown>);
      const answer = answers[puts.length - 1] ?? { status: 200, body: { ...workflow, status: 'active' } };
      return HttpResponse.json(answer.body as never, { status: answer.status });
    }),
    http.get(`${ORIGIN}/api/eval-runs/er-1`, () =>
      HttpResponse.json(runs.length > 1 ? runs.shift()! : runs[0]!),
    ),
  );
  render(<Toaster />);
  return { ...opened, puts };
}

describe('Activate behind the activation gate', () => {
  it('follows the evaluation, shows the refusal with the failed items, and lets an owner activate anyway with a note', async () => {
    const { puts, user } = await openGated(
      'owner',
      [
        { status: 202, body: running },
        { status: 409, body: refusal },
      ],
      [evalRun({}), evalRun({ status: 'completed', progress: { done: 2, total: 2 }, passRate: 0.5 })],
    );
    await user.click(screen.getByRole('button', { name: 'Activate' }));

    // The evaluation runs first: its progress, read again every 1.5 s, and the way to its page.
    const progress = await screen.findByRole('dialog', { name: 'Evaluating before activation' });
    expect(await within(progress).findByText('1/2')).toBeTruthy();
    expect(within(progress).getByRole('link', { name: 'Open the eval run' }).getAttribute('href')).toBe(
      '/evaluations/runs/er-1',
    );
    expect(puts[0]).toMatchObject({ status: 'active', config: workflow.config });

    // It ends below the minimum: Activate is sent once more, and the server's refusal shows.
    const refused = await screen.findByRole('dialog', { name: 'Activation refused' }, { timeout: 4000 });
    expect(puts[1]).toEqual({ status: 'active' });
    expect(within(refused).getByText(refusal.message)).toBeTruthy();
    const item = within(refused).getByTestId('gate-failed-item');
    expect(item.textContent).toContain('{"message":"Beta prices"}');
    expect(item.textContent).toContain('Same answer: expected "Beta"');
    expect(within(refused).getByRole('link', { name: 'Open the eval run' }).getAttribute('href')).toBe(
      '/evaluations/runs/er-1',
    );

    // An owner activates anyway, and must say why.
    await user.click(within(refused).getByRole('button', { name: 'Activate anyway' }));
    expect(await within(refused).findByText('Say why')).toBeTruthy();
    expect(puts).toHaveLength(2);
    await user.type(within(refused).getByLabelText('Why activate anyway?'), 'Known flaky case');
    await user.click(within(refused).getByRole('button', { name: 'Activate anyway' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Activation refused' })).toBeNull());
    expect(puts[2]).toEqual({ status: 'active', gateOverride: { note: 'Known flaky case' } });
    expect(await screen.findByText('Workflow Activated')).toBeTruthy();
    expect(screen.getByText('active')).toBeTruthy();
  }, 15_000);

  it('tells a member that only owners can override, and offers no way to', async () => {
    const { user } = await openGated('member', [{ status: 409, body: refusal }]);
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    const refused = await screen.findByRole('dialog', { name: 'Activation refused' });
    expect(within(refused).getByText(`${evaluationMessages.gateOverrideOwnersOnly}.`)).toBeTruthy();
    expect(within(refused).queryByRole('button', { name: 'Activate anyway' })).toBeNull();
    // The changes were saved all the same: nothing is left unsaved, and the workflow is still a draft.
    expect(screen.getByText('draft')).toBeTruthy();
  });

  it('says the workflow is activated when the evaluation passes', async () => {
    const { puts, user } = await openGated(
      'owner',
      [{ status: 202, body: running }],
      [evalRun({ status: 'completed', progress: { done: 2, total: 2 }, passRate: 1 })],
    );
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('Evaluation passed: 100 %')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Evaluating before activation' })).toBeNull();
    // The server records the version by itself: nothing more is sent.
    expect(puts).toHaveLength(1);
    expect(screen.getByText('active')).toBeTruthy();
  });
});
