import type { ExecutionSummary } from '@crewline/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { upsertExecutionSummary } from '@/lib/execution-summaries';

import {
  filtersFromSearch,
  hasExecutionFilters,
  isCalendarDay,
  listRequestOf,
  NO_EXECUTION_FILTERS,
  searchFor,
  tabFromSearch,
  workflowRunsPath,
} from './execution-filter-params';

const W = '0b6f6b9e-6f1c-4a57-9b8e-2a3b4c5d6e7f';

describe('Executions tab address ⇄ filters', () => {
  it('reads the tab and every filter from the address', () => {
    const search = new URLSearchParams(
      `tab=executions&workflow=${W}&status=failed&trigger=webhook&from=2026-03-01&to=2026-03-05`,
    );
    expect(tabFromSearch(search)).toBe('executions');
    expect(filtersFromSearch(search)).toEqual({
      workflowId: W,
      status: 'failed',
      trigger: 'webhook',
      from: '2026-03-01',
      to: '2026-03-05',
    });
  });

  it('ignores values the list does not know (an edited link) and defaults to the Workflows tab', () => {
    const search = new URLSearchParams(
      'tab=nope&workflow=42&status=done&trigger=retry&from=2026-02-30&to=tomorrow',
    );
    expect(tabFromSearch(search)).toBe('workflows');
    expect(filtersFromSearch(search)).toEqual(NO_EXECUTION_FILTERS);
    expect(hasExecutionFilters(filtersFromSearch(search))).toBe(false);
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
  });

  it('writes only the filters that are set, keeps other parameters, and round-trips', () => {
    const filters = {
      ...NO_EXECUTION_FILTERS,
      workflowId: W,
      trigger: 'schedule' as const,
      to: '2026-03-05',
    };
    const search = searchFor('executions', filters, new URLSearchParams('utm=mail&status=failed'));
    expect(search.toString()).toBe(`utm=mail&tab=executions&workflow=${W}&trigger=schedule&to=2026-03-05`);
    expect(filtersFromSearch(search)).toEqual(filters);
    expect(tabFromSearch(search)).toBe('executions');
  });

  it('drops the filters with the Workflows tab', () => {
    const search = searchFor(
      'workflows',
      { ...NO_EXECUTION_FILTERS, status: 'failed' },
      new URLSearchParams('utm=x'),
    );
    expect(search.toString()).toBe('utm=x');
  });

  it("links a workflow card's menu to that workflow's runs", () => {
    expect(workflowRunsPath(W)).toBe(`/workflows?tab=executions&workflow=${W}`);
  });
});

describe('the list request', () => {
  const tz = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'America/New_York';
  });
  afterEach(() => {
    process.env.TZ = tz;
  });

  it("sends the days as the viewer's local midnights, the last day included", () => {
    expect(
      listRequestOf({
        workflowId: W,
        status: 'running',
        trigger: 'manual',
        from: '2026-03-01',
        to: '2026-03-05',
      }),
    ).toEqual({
      workflowId: W,
      status: 'running',
      trigger: 'manual',
      // New York is UTC-5 in winter; daylight saving starts on 8 March 2026.
      from: '2026-03-01T05:00:00.000Z',
      to: '2026-03-06T05:00:00.000Z',
    });
    expect(listRequestOf({ ...NO_EXECUTION_FILTERS, from: '2026-03-08', to: '2026-03-08' })).toEqual({
      from: '2026-03-08T05:00:00.000Z',
      to: '2026-03-09T04:00:00.000Z',
    });
  });

  it('reads a range given end first the other way round, and sends nothing without filters', () => {
    expect(listRequestOf({ ...NO_EXECUTION_FILTERS, from: '2026-03-05', to: '2026-03-01' })).toEqual({
      from: '2026-03-01T05:00:00.000Z',
      to: '2026-03-06T05:00:00.000Z',
    });
    expect(listRequestOf(NO_EXECUTION_FILTERS)).toEqual({});
  });
});

describe('a live run in a filtered list', () => {
  const run = (over: Partial<ExecutionSummary>): ExecutionSummary => ({
    id: 'r1',
    workflowId: W,
    workflowName: 'Digest',
    processType: 'sequential',
    workflowVersion: 1,
    status: 'pending',
    error: null,
    failedStep: null,
    untrusted: false,
    waiting: null,
    retryOf: null,
    retriedBy: null,
    result: null,
    trigger: 'manual',
    triggerDetail: null,
    triggeredBy: null,
    triggeredByName: null,
    startedAt: null,
    completedAt: null,
    createdAt: '2026-03-03T12:00:00.000Z',
    ...over,
  });

  it('is added only where its trigger and creation time match the filters', () => {
    const window = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-04T00:00:00.000Z' };
    expect(upsertExecutionSummary([], run({}), { trigger: 'manual', ...window }, true)).toHaveLength(1);
    expect(upsertExecutionSummary([], run({}), { trigger: 'webhook' }, true)).toHaveLength(0);
    expect(
      upsertExecutionSummary([], run({ createdAt: '2026-03-04T00:00:00.000Z' }), window, true),
    ).toHaveLength(0);
    expect(
      upsertExecutionSummary([], run({ createdAt: '2026-02-28T23:59:59.000Z' }), window, true),
    ).toHaveLength(0);
  });
});
