import type { EvalRun } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { EVAL_RUN_POLL_MS } from '../api/eval-runs';
import { aRun, anItem } from '../runs/eval-test-data';
import { EvalRunPage } from './eval-run-page';

beforeEach(() => setAuthToken('token'));
afterEach(() => {
  clearStoredAuth();
  vi.useRealTimers();
});

const renderRunPage = () =>
  renderWithApp(<EvalRunPage />, { path: '/evaluations/runs/:id', url: '/evaluations/runs/r1' });

describe('the eval run page', () => {
  it('shows the progress while the run runs, reads it every 1.5 s, and stops once it has ended', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers: EvalRun[] = [
      aRun({
        status: 'running',
        progress: { done: 42, total: 120 },
        passRate: 0.8,
        items: [anItem({ output: null, passed: null, score: null, grades: [] })],
      }),
      aRun({ status: 'running', progress: { done: 90, total: 120 }, passRate: 0.8, items: [] }),
      aRun({ status: 'completed', progress: { done: 120, total: 120 }, passRate: 0.85 }),
    ];
    let reads = 0;
    server.use(
      http.get(`${ORIGIN}/api/eval-runs/r1`, () =>
        HttpResponse.json(answers[Math.min(reads++, answers.length - 1)]),
      ),
      // The run's end refreshes the evaluation's list of runs.
      answerGet('/api/evaluations/e1/runs', []),
    );
    renderRunPage();

    expect(await screen.findByText('42/120')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.getByText('against v7')).toBeTruthy();
    expect(screen.getByText('dataset v3')).toBeTruthy();
    // An item without a verdict yet is still to come, not 'Not run'.
    expect(screen.getByTestId('eval-item-row').getAttribute('data-state')).toBe('pending');

    await vi.advanceTimersByTimeAsync(EVAL_RUN_POLL_MS);
    expect(await screen.findByText('90/120')).toBeTruthy();

    await vi.advanceTimersByTimeAsync(EVAL_RUN_POLL_MS);
    expect(await screen.findByText('85 %')).toBeTruthy();
    expect(screen.queryByText(/\/120$/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.getByText('completed')).toBeTruthy();
    expect(reads).toBe(3);

    await vi.advanceTimersByTimeAsync(EVAL_RUN_POLL_MS * 4);
    expect(reads).toBe(3);
  });

  it('cancels after saying that the items not yet run are not run', async () => {
    let cancelled = 0;
    server.use(
      answerGet<EvalRun>('/api/eval-runs/r1', aRun({ status: 'running', progress: { done: 1, total: 4 } })),
      http.post(`${ORIGIN}/api/eval-runs/r1/cancel`, () => {
        cancelled++;
        return HttpResponse.json(aRun({ status: 'cancelled' }));
      }),
      answerGet('/api/evaluations/e1/runs', []),
    );
    const { default: userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    renderRunPage();

    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Items not yet run are not run.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel eval run' }));
    await vi.waitFor(() => expect(cancelled).toBe(1));
  });

  it('lists the items in the order the API gives, failures first, with their verdicts, grades and run', async () => {
    server.use(
      answerGet<EvalRun>(
        '/api/eval-runs/r1',
        aRun({
          items: [
            anItem({
              itemId: 'i2',
              executionId: 'x2',
              input: { message: 'Where is my parcel?' },
              output: 'No idea',
              expected: 'In transit',
              passed: false,
              score: 0,
              grades: [
                {
                  type: 'exact',
                  name: 'Exact match',
                  score: 0,
                  passed: false,
                  reason: 'Differs from In transit',
                },
              ],
            }),
            anItem({
              itemId: 'i3',
              executionId: 'x3',
              input: { message: 'Cancel my order' },
              output: null,
              passed: null,
              score: null,
              grades: [],
              error: 'The model is unavailable',
            }),
            anItem({
              itemId: 'i1',
              grades: [{ type: 'exact', name: 'Exact match', score: 0.75, passed: true, reason: 'Close' }],
            }),
          ],
        }),
      ),
      answerGet('/api/evaluations/e1/runs', []),
    );
    renderRunPage();

    const rows = await screen.findAllByTestId('eval-item-row');
    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual(['failed', 'not_run', 'passed']);
    expect(within(rows[0]!).getByText('Where is my parcel?')).toBeTruthy();
    expect(within(rows[0]!).getByText('Failed')).toBeTruthy();
    const failedGrade = within(rows[0]!).getAllByText('Exact match 0.00')[0]!;
    expect(failedGrade.closest('[data-passed]')?.getAttribute('data-passed')).toBe('false');
    expect(within(rows[1]!).getByText('The model is unavailable')).toBeTruthy();
    expect(
      within(rows[2]!).getAllByText('Exact match 0.75')[0]!.closest('[title]')?.getAttribute('title'),
    ).toBe('Close');
    expect(within(rows[0]!).getByRole('link', { name: 'Run' }).getAttribute('href')).toBe(
      '/workflows?tab=executions&run=x2',
    );
    expect(screen.getByText('$0.0123')).toBeTruthy();
    expect(within(screen.getByTestId('eval-latency')).getByTestId('stat-value').textContent).toBe(
      '1.2 s / 3.4 s',
    );
  });
});
