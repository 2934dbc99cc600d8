import type { CostRow } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  costBarHeight,
  costDays,
  costsWindow,
  costTotals,
  localDay,
  rowCost,
  unpricedCallsText,
} from './costs-figures';

function row(values: Partial<CostRow>): CostRow {
  return {
    key: '2026-12-01',
    label: '2026-12-01',
    costUsd: 0.25,
    inputTokens: 1000,
    cachedInputTokens: 100,
    outputTokens: 500,
    calls: 2,
    unpricedCalls: 0,
    unpricedModels: [],
    ...values,
  };
}

// The times are the viewer's local ones (new Date(y, m, d, …)), so these hold in any time zone.
describe('the costs window', () => {
  const now = new Date(2026, 11, 3, 15, 42, 10);

  it('covers whole calendar days for 7, 30 and 90 days, today included', () => {
    expect(costsWindow('7', now)).toEqual({
      range: '7',
      from: new Date(2026, 10, 27).toISOString(),
      to: new Date(2026, 11, 4).toISOString(),
      firstDay: '2026-11-27',
      lastDay: '2026-12-03',
    });
    const month = costsWindow('30', now);
    expect([month.firstDay, month.lastDay]).toEqual(['2026-11-04', '2026-12-03']);
    const quarter = costsWindow('90', now);
    expect([quarter.firstDay, quarter.lastDay]).toEqual(['2026-09-05', '2026-12-03']);
    expect(costDays([], quarter.firstDay, quarter.lastDay)).toHaveLength(90);
  });

  it('covers the last 24 whole hours for 24h, the current one included', () => {
    const day = costsWindow('24', now);
    expect(day.from).toBe(new Date(2026, 11, 2, 16).toISOString());
    expect(day.to).toBe(new Date(2026, 11, 3, 16).toISOString());
    expect([day.firstDay, day.lastDay]).toEqual(['2026-12-02', '2026-12-03']);
  });

  it('stays the same through the hour or the day, so its query does not change', () => {
    expect(costsWindow('24', new Date(2026, 11, 3, 15, 59))).toEqual(costsWindow('24', now));
    expect(costsWindow('7', new Date(2026, 11, 3, 0, 1))).toEqual(costsWindow('7', now));
  });

  it('writes a day as the viewer’s calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('the chart days', () => {
  it('fills the days without spend with nothing, in order', () => {
    const days = costDays(
      [row({ key: '2026-11-30', costUsd: 1 }), row({ key: '2026-12-02', costUsd: 0.5, unpricedCalls: 1 })],
      '2026-11-29',
      '2026-12-03',
    );
    expect(days.map((day) => [day.date, day.costUsd, day.calls])).toEqual([
      ['2026-11-29', 0, 0],
      ['2026-11-30', 1, 2],
      ['2026-12-01', 0, 0],
      ['2026-12-02', 0.5, 2],
      ['2026-12-03', 0, 0],
    ]);
    expect(days[3].unpricedCalls).toBe(1);
  });

  it('crosses month and year ends', () => {
    expect(costDays([], '2026-12-30', '2027-01-02').map((day) => day.date)).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
    ]);
  });

  it('draws a bar in proportion to the dearest day, a day with spend always visible', () => {
    expect(costBarHeight(1, 2)).toBe(50);
    expect(costBarHeight(2, 2)).toBe(100);
    expect(costBarHeight(0.0001, 100)).toBe(2);
    expect(costBarHeight(0, 2)).toBe(0);
  });
});

describe('the costs totals', () => {
  it('add up cost, calls and input and output tokens, and name each unpriced model once', () => {
    const totals = costTotals([
      row({ costUsd: 0.25, unpricedCalls: 1, unpricedModels: ['my-model', 'llama3'] }),
      row({
        costUsd: 1,
        calls: 3,
        inputTokens: 10,
        outputTokens: 5,
        unpricedCalls: 2,
        unpricedModels: ['llama3'],
      }),
    ]);
    expect(totals).toEqual({
      costUsd: 1.25,
      calls: 5,
      inputTokens: 1010,
      outputTokens: 505,
      unpricedCalls: 3,
      unpricedModels: ['llama3', 'my-model'],
    });
    expect(unpricedCallsText(totals)).toBe('3 calls of models without a price (llama3, my-model)');
    expect(unpricedCallsText({ unpricedCalls: 1, unpricedModels: ['llama3'] })).toBe(
      '1 call of models without a price (llama3)',
    );
  });

  it('is unknown, not 0, when no call had a price', () => {
    expect(costTotals([row({ costUsd: 0, calls: 2, unpricedCalls: 2, unpricedModels: ['x'] })]).costUsd).toBe(
      null,
    );
    expect(rowCost(row({ costUsd: 0, calls: 0 }))).toBe(0);
    expect(costTotals([]).costUsd).toBe(0);
  });
});
