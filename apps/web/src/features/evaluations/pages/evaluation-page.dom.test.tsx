import type {
  EvalRunSummary,
  Evaluation,
  StartEvalRunInput,
  WorkflowVersionSummary,
} from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { aRunSummary, anEvaluation } from '../runs/eval-test-data';
import { EvaluationPage } from './evaluation-page';

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

const runs: EvalRunSummary[] = [
  aRunSummary({
    id: 'r3',
    versionLabel: 'Draft',
    version: null,
    status: 'running',
    progress: { done: 3, total: 10 },
    createdAt: '2026-12-03T10:00:00Z',
  }),
  aRunSummary({ id: 'r2', versionLabel: 'v7', passRate: 0.85, createdAt: '2026-12-02T10:00:00Z' }),
  aRunSummary({ id: 'r1', versionLabel: 'v6', passRate: 0.9, createdAt: '2026-12-01T10:00:00Z' }),
];

function renderPage(evaluation: Evaluation = anEvaluation(), list = runs) {
  server.use(
    answerGet<Evaluation>('/api/evaluations/e1', evaluation),
    answerGet<EvalRunSummary[]>('/api/evaluations/e1/runs', list),
  );
  return renderWithApp(<EvaluationPage />, { path: '/evaluations/:id', url: '/evaluations/e1' });
}

describe('the evaluation page', () => {
  it('shows its workflow, dataset, graders and schedule', async () => {
    renderPage(
      anEvaluation({
        graders: [
          { type: 'exact', name: 'Exact answer', weight: 2 },
          { type: 'max_cost', maxUsd: 0.01 },
        ],
        passThreshold: 0.5,
        schedule: { nightly: true, minPassRate: 0.9 },
      }),
    );
    expect((await screen.findByRole('link', { name: 'Support bot' })).getAttribute('href')).toBe(
      '/workflows/edit/w1',
    );
    expect(screen.getByRole('link', { name: 'Refund questions' }).getAttribute('href')).toBe(
      '/evaluations/datasets/d1',
    );
    const graders = within(screen.getByRole('list', { name: 'Graders' }));
    expect(graders.getByText('Exact answer · Exact match · weight 2')).toBeTruthy();
    expect(graders.getByText('Cost ceiling · weight 1')).toBeTruthy();
    expect(screen.getByText("50 % of the graders' weight")).toBeTruthy();
    expect(screen.getByText('Nightly against the active version · alert below 90 %')).toBeTruthy();
  });

  it('lists the runs and compares the two picked, the older as a', async () => {
    // The test's router has only this page's route, which '/evaluations/compare' also matches.
    server.use(http.get(`${ORIGIN}/api/evaluations/compare`, () => new HttpResponse(null, { status: 404 })));
    const user = userEvent.setup();
    const { router } = renderPage();
    const rows = await screen.findAllByTestId('eval-run-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('3/10')).toBeTruthy();
    expect(within(rows[1]!).getByText('85 %')).toBeTruthy();
    expect(within(rows[1]!).getByText('$0.0123')).toBeTruthy();
    expect(within(rows[1]!).getByText('3.4 s')).toBeTruthy();

    const compare = screen.getByRole('button', { name: 'Compare' });
    expect(compare.hasAttribute('disabled')).toBe(true);
    await user.click(within(rows[0]!).getByRole('checkbox'));
    expect(compare.hasAttribute('disabled')).toBe(true);
    await user.click(within(rows[2]!).getByRole('checkbox'));
    // Exactly two: a third cannot be ticked.
    expect(within(rows[1]!).getByRole('checkbox').hasAttribute('disabled')).toBe(true);
    await user.click(compare);
    expect(router.state.location.pathname).toBe('/evaluations/compare');
    expect(router.state.location.search).toBe('?a=r1&b=r3');
  });

  it('runs it against the version picked, at the concurrency given, and opens the run', async () => {
    const sent: StartEvalRunInput[] = [];
    server.use(
      answerGet<WorkflowVersionSummary[]>('/api/workflows/w1/versions', [
        { version: 7, createdAt: '2026-12-02T10:00:00Z', createdBy: null, note: 'Shorter answers' },
      ]),
      http.post(`${ORIGIN}/api/evaluations/e1/runs`, async ({ request }) => {
        sent.push((await request.json()) as StartEvalRunInput);
        return HttpResponse.json({ id: 'r9', status: 'running' }, { status: 202 });
      }),
    );
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Run evaluation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run evaluation' });
    const version = within(dialog).getByLabelText('Version');
    await waitFor(() => expect(version.textContent).toBe('Active version'));
    await user.click(version);
    expect(
      await screen.findByRole('option', { name: 'Draft (unsaved changes are not included)' }),
    ).toBeTruthy();
    await user.click(await screen.findByRole('option', { name: /^v7 · .* · Shorter answers$/ }));
    const concurrency = within(dialog).getByLabelText('Concurrency');
    expect((concurrency as HTMLInputElement).value).toBe('5');
    await user.clear(concurrency);
    await user.type(concurrency, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Run evaluation' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/evaluations/runs/r9'));
    expect(sent).toEqual([{ version: 7, concurrency: 12 }]);
  });
});
