import type { EvalComparison } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { aComparison, aRunSummary } from '../runs/eval-test-data';
import { EvalComparePage } from './eval-compare-page';

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

const side = (output: string, passed: boolean, score = passed ? 1 : 0) => ({
  executionId: 'x',
  output,
  passed,
  score,
  grades: [],
  costUsd: 0.001,
  durationMs: 900,
  error: null,
});

const comparison: EvalComparison = aComparison({
  a: aRunSummary({ id: 'ra', versionLabel: 'v7', passRate: 0.75 }),
  b: aRunSummary({ id: 'rb', versionLabel: 'Draft', version: null, passRate: 0.65 }),
  items: [
    {
      itemId: 'i1',
      input: { message: 'Can I get a refund?' },
      expected: 'Yes, within 30 days',
      a: side('Yes, within 30 days', true),
      b: side('No, never', false),
      regressed: true,
      improved: false,
      scoreDelta: -1,
    },
    {
      itemId: 'i2',
      input: { message: 'Where is my parcel?' },
      expected: 'In transit',
      a: side('Unknown', false),
      b: side('In transit', true),
      regressed: false,
      improved: true,
      scoreDelta: 1,
    },
    {
      itemId: 'i3',
      input: { message: 'Say hello' },
      expected: null,
      a: side('Hello there friend', true),
      b: side('Hello dear friend', true),
      regressed: false,
      improved: false,
      scoreDelta: 0,
    },
    {
      itemId: 'i4',
      input: { message: 'Unchanged' },
      expected: null,
      a: side('Same', true),
      b: side('Same', true),
      regressed: false,
      improved: false,
      scoreDelta: 0,
    },
  ],
  totals: { regressions: 1, improvements: 1, passRateDelta: -0.1, costUsdDelta: 0.0012, p50Delta: -200 },
});

function renderCompare() {
  server.use(answerGet<EvalComparison>('/api/eval-runs/compare', comparison));
  return renderWithApp(<EvalComparePage />, { url: '/evaluations/compare?a=ra&b=rb' });
}

const rowInputs = () => screen.getAllByTestId('compare-input').map((input) => input.textContent);

describe('the comparison of two eval runs', () => {
  it('heads with both versions and shows the totals with their change', async () => {
    renderCompare();
    expect(await screen.findByRole('heading', { name: 'v7 → Draft' })).toBeTruthy();
    const passRate = screen.getByTestId('compare-pass-rate');
    expect(within(passRate).getByText('\u221210 pts').getAttribute('data-trend')).toBe('worse');
    expect(within(passRate).getByText('75 % → 65 %')).toBeTruthy();
    expect(within(screen.getByTestId('compare-regressions')).getByText('1')).toBeTruthy();
    expect(within(screen.getByTestId('compare-cost')).getByText('+$0.0012')).toBeTruthy();
    expect(
      within(screen.getByTestId('compare-latency')).getByText('\u2212200 ms').getAttribute('data-trend'),
    ).toBe('better');
  });

  it('narrows the items with the filter chips and marks regressions and improvements', async () => {
    const user = userEvent.setup();
    renderCompare();
    await screen.findByRole('heading', { name: 'v7 → Draft' });
    expect(rowInputs()).toEqual(['Can I get a refund?', 'Where is my parcel?', 'Say hello', 'Unchanged']);

    await user.click(screen.getByRole('button', { name: /^Regressions/ }));
    expect(rowInputs()).toEqual(['Can I get a refund?']);
    expect(within(screen.getByTestId('compare-row')).getByText('Regressed')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Regressions/ }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: /^Improvements/ }));
    expect(rowInputs()).toEqual(['Where is my parcel?']);
    expect(within(screen.getByTestId('compare-row')).getByText('Improved')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /^Changed/ }));
    expect(rowInputs()).toEqual(['Can I get a refund?', 'Where is my parcel?', 'Say hello']);

    await user.click(screen.getByRole('button', { name: /^All/ }));
    expect(screen.getAllByTestId('compare-row')).toHaveLength(4);
  });

  it("shows each side's answer with the words the other dropped or added", async () => {
    renderCompare();
    await screen.findByRole('heading', { name: 'v7 → Draft' });
    const row = screen.getAllByTestId('compare-row')[2]!;
    const before = within(row).getByTestId('diff-before');
    const after = within(row).getByTestId('diff-after');
    expect(before.textContent).toBe('Hello there friend');
    expect(after.textContent).toBe('Hello dear friend');
    expect([...before.querySelectorAll('del')].map((node) => node.textContent)).toEqual(['there']);
    expect(before.querySelectorAll('ins')).toHaveLength(0);
    expect([...after.querySelectorAll('ins')].map((node) => node.textContent)).toEqual(['dear']);
    expect(after.querySelectorAll('del')).toHaveLength(0);
    expect(within(row).getByText('0.00')).toBeTruthy();
    expect(within(screen.getAllByTestId('compare-row')[0]!).getByText('\u22121.00')).toBeTruthy();
  });
});
