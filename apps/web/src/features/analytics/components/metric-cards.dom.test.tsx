import type { Analytics, AnalyticsPeriod, OrganizationStats } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '@/testing/render';

import { MetricCards } from './metric-cards';

const stats: OrganizationStats = {
  totalAgents: 3,
  activeAgents: 2,
  totalWorkflows: 2,
  activeWorkflows: 1,
  totalExecutions: 6,
  recentExecutions: 4,
  successRate: 75,
  failedExecutions: 1,
  avgExecutionTime: 4.2,
};

function period(values: Partial<AnalyticsPeriod>): AnalyticsPeriod {
  return {
    executions: 4,
    successful: 3,
    failed: 1,
    successRate: 75,
    avgExecutionTime: 4.2,
    avgWaitTime: 0,
    totalTokens: 0,
    agentsCreated: 0,
    workflowsCreated: 0,
    ...values,
  };
}

function analytics(current: AnalyticsPeriod, previous: AnalyticsPeriod): Analytics {
  return {
    range: { days: '7', from: '2026-03-22T12:00:00.000Z', to: '2026-03-29T12:00:00.000Z' },
    current,
    previous,
    dailyExecutions: [],
    topAgents: [],
    agents: [],
    workflows: [],
    performance: { p50ExecutionTime: 4, p95ExecutionTime: 6, avgStepTime: 800, avgTokensPerExecution: 0 },
  };
}

const card = (testId: string) => within(screen.getByTestId(testId));

describe('the analytics metric cards', () => {
  it('show the average waiting time beside the average execution time, each against the last period', () => {
    renderWithApp(
      <MetricCards
        stats={stats}
        analytics={analytics(
          period({ avgExecutionTime: 4.2, avgWaitTime: 5400 }),
          period({ avgExecutionTime: 5, avgWaitTime: 1800 }),
        )}
      />,
    );
    const working = card('metric-avg-execution-time');
    expect(working.getByText('Avg Execution Time')).toBeTruthy();
    expect(working.getByTestId('stat-value').textContent).toBe('4.2s');
    const waiting = card('metric-avg-wait-time');
    expect(waiting.getByText('Avg. Waiting Time')).toBeTruthy();
    expect(waiting.getByTestId('stat-value').textContent).toBe('1h 30m');
    expect(waiting.getByTestId('metric-change').textContent).toBe('+1h 0m from last period');
    // The cards stand side by side, waiting right after working time.
    const titles = screen.getAllByTestId(/^metric-(?!change)/).map((element) => element.dataset.testid);
    expect(titles.slice(-2)).toEqual(['metric-avg-execution-time', 'metric-avg-wait-time']);
  });

  it('show no waiting time before any run finished, and 0s once runs finished without waiting', () => {
    const { unmount } = renderWithApp(
      <MetricCards
        stats={stats}
        analytics={analytics(
          period({ executions: 1, successful: 0, failed: 0, successRate: null, avgWaitTime: 0 }),
          period({}),
        )}
      />,
    );
    expect(card('metric-avg-wait-time').getByTestId('stat-value').textContent).toBe('—');
    expect(card('metric-avg-wait-time').getByTestId('metric-change').textContent).toBe(
      'No finished runs in this period',
    );
    unmount();
    renderWithApp(<MetricCards stats={stats} analytics={analytics(period({}), period({}))} />);
    expect(card('metric-avg-wait-time').getByTestId('stat-value').textContent).toBe('0s');
  });
});
