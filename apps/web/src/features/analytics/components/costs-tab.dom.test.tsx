import type { CostRow } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { costsWindow, localDay } from '../costs-figures';
import { CostsTab } from './costs-tab';

// The file the Download CSV button saves, instead of a browser download.
const downloads = vi.hoisted(() => [] as { fileName: string; text: string; type?: string }[]);
vi.mock('@/lib/download', () => ({
  downloadFile: (fileName: string, text: string, type?: string) => downloads.push({ fileName, text, type }),
}));
afterEach(() => {
  downloads.length = 0;
});

function row(values: Partial<CostRow>): CostRow {
  return {
    key: 'k',
    label: 'k',
    costUsd: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    calls: 0,
    unpricedCalls: 0,
    unpricedModels: [],
    ...values,
  };
}

const today = localDay(new Date());
const yesterday = localDay(new Date(Date.now() - 24 * 60 * 60 * 1000));

const byDay: CostRow[] = [
  row({ key: yesterday, label: yesterday, costUsd: 0.75, inputTokens: 4000, outputTokens: 1000, calls: 3 }),
  row({ key: today, label: today, costUsd: 0.5, inputTokens: 2000, outputTokens: 500, calls: 2 }),
];
const byAgent: CostRow[] = [
  row({
    key: 'agent-1',
    label: 'Market Analyst',
    costUsd: 1,
    inputTokens: 5000,
    cachedInputTokens: 1200,
    outputTokens: 1200,
    calls: 4,
  }),
  row({
    key: 'agent-2',
    label: '=Writer, "EU"',
    costUsd: 0.25,
    inputTokens: 1000,
    outputTokens: 300,
    calls: 1,
  }),
];

/** Answers GET /api/usage/costs with the rows of each grouping; returns the query strings asked for. */
function answerCosts(rows: Partial<Record<string, CostRow[]>>) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(`${ORIGIN}/api/usage/costs`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(query);
      const answer = rows[query.get('groupBy') ?? ''];
      return answer ? HttpResponse.json(answer) : HttpResponse.json({ message: 'no' }, { status: 500 });
    }),
  );
  return asked;
}

const card = (testId: string) => within(screen.getByTestId(testId));

describe('Analytics → Costs', () => {
  it('shows the range’s spend, calls and tokens, and a bar for each of its days', async () => {
    const asked = answerCosts({ day: byDay });
    renderWithApp(<CostsTab range="7" />);

    expect(await screen.findByText('Daily Spend')).toBeTruthy();
    expect(card('metric-spend').getByTestId('stat-value').textContent).toBe('$1.25');
    expect(card('metric-model-calls').getByTestId('stat-value').textContent).toBe('5');
    expect(card('metric-tokens').getByTestId('stat-value').textContent).toBe('7,500');
    expect(card('metric-tokens').getByText('6,000 in · 1,500 out')).toBeTruthy();
    expect(screen.queryByTestId('unpriced-note')).toBeNull();

    // Seven days, today last; the days without spend are there too, empty.
    const bars = screen.getAllByTestId('cost-bar');
    expect(bars).toHaveLength(7);
    expect(bars.at(-1)?.dataset.date).toBe(today);
    expect(bars.at(-1)?.getAttribute('aria-label')).toMatch(/: \$0\.50, 2 calls$/);
    expect(bars[0].getAttribute('aria-label')).toMatch(/: no model calls$/);

    // Whole days of the viewer's time zone, sent with it.
    const query = asked[0];
    expect(query.get('groupBy')).toBe('day');
    expect(query.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(Date.parse(query.get('to') ?? '') - Date.parse(query.get('from') ?? '')).toBeGreaterThanOrEqual(
      7 * 24 * 60 * 60 * 1000 - 60 * 60 * 1000,
    );
    // The table groups by day until told otherwise: one request serves both.
    const table = screen.getByRole('table', { name: 'Spend by day' });
    expect(within(table).getAllByTestId('cost-row')).toHaveLength(2);
    expect(asked).toHaveLength(1);
  });

  it('says how many calls had no price and for which models, and leads to Settings → Costs', async () => {
    answerCosts({
      day: [
        row({
          key: today,
          label: today,
          costUsd: 0.5,
          calls: 5,
          unpricedCalls: 3,
          unpricedModels: ['llama3', 'my-model'],
        }),
      ],
    });
    renderWithApp(<CostsTab range="24" />);

    const note = await screen.findByTestId('unpriced-note');
    expect(note.textContent).toBe(
      '3 calls of models without a price (llama3, my-model): their cost is unknown. Set a price in Settings → Costs.',
    );
    expect(within(note).getByRole('link', { name: 'Settings → Costs' }).getAttribute('href')).toBe(
      '/settings/profile?tab=costs',
    );
    // The priced part is known; the row says what it leaves out.
    expect(card('metric-spend').getByTestId('stat-value').textContent).toBe('$0.50');
    expect(screen.getByRole('table', { name: 'Spend by day' }).textContent).toContain('+ 3 unpriced');
  });

  it('shows a cost no price could tell as unknown, not $0.00', async () => {
    answerCosts({
      day: [row({ key: today, label: today, calls: 2, unpricedCalls: 2, unpricedModels: ['llama3'] })],
    });
    renderWithApp(<CostsTab range="7" />);
    expect(await screen.findByTestId('unpriced-note')).toBeTruthy();
    expect(card('metric-spend').getByTestId('stat-value').textContent).toBe('unknown');
    expect(screen.getByText('2 calls of models without a price (llama3)', { exact: false })).toBeTruthy();
  });

  it('groups the table by agent, and downloads what it shows as CSV', async () => {
    const asked = answerCosts({ day: byDay, agent: byAgent });
    const user = userEvent.setup();
    renderWithApp(<CostsTab range="30" />);
    await screen.findByText('Daily Spend');

    await user.click(screen.getByRole('combobox', { name: 'Group by' }));
    await user.click(screen.getByRole('option', { name: 'Agent' }));

    const table = await screen.findByRole('table', { name: 'Spend by agent' });
    await waitFor(() => expect(within(table).queryByText('Market Analyst')).toBeTruthy());
    expect(screen.getByText('Spend by Agent')).toBeTruthy();
    const cells = within(within(table).getAllByTestId('cost-row')[0]).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'Market Analyst5,000 in · 1,200 out',
      '$1.00',
      '4',
      '5,000',
      '1,200',
      '1,200',
    ]);
    expect(asked.map((query) => query.get('groupBy'))).toEqual(['day', 'agent']);
    // The same window for both.
    expect(asked[1].get('from')).toBe(asked[0].get('from'));
    // The chart and the totals are still the range's, by day.
    expect(screen.getAllByTestId('cost-bar')).toHaveLength(30);
    expect(card('metric-spend').getByTestId('stat-value').textContent).toBe('$1.25');

    const download = screen.getByRole('button', { name: 'Download CSV' });
    await waitFor(() => expect(download.hasAttribute('disabled')).toBe(false));
    await user.click(download);
    expect(downloads).toHaveLength(1);
    const { firstDay } = costsWindow('30', new Date());
    expect(downloads[0].fileName).toBe(`crewline-costs-${firstDay}-${today}-agent.csv`);
    expect(downloads[0].type).toBe('text/csv;charset=utf-8');
    expect(downloads[0].text.split('\r\n')).toEqual([
      'key,label,cost_usd,calls,input_tokens,cached_input_tokens,output_tokens,unpriced_calls',
      'agent-1,Market Analyst,1,4,5000,1200,1200,0',
      `agent-2,"'=Writer, ""EU""",0.25,1,1000,0,300,0`,
      '',
    ]);
  });

  it('says when the range has no model spend', async () => {
    answerCosts({ day: [] });
    renderWithApp(<CostsTab range="90" />);
    expect(await screen.findByText('No model spend in this range.')).toBeTruthy();
    expect(card('metric-spend').getByTestId('stat-value').textContent).toBe('$0.00');
    expect(card('metric-model-calls').getByTestId('stat-value').textContent).toBe('0');
    expect(screen.queryByTestId('cost-bar')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it('offers to try again when the costs cannot be loaded', async () => {
    answerCosts({});
    renderWithApp(<CostsTab range="7" />);
    expect(await screen.findByText('Could not load costs')).toBeTruthy();
  });
});
