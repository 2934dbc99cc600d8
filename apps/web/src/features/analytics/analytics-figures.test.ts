import type { AgentAnalytics, AnalyticsPeriod, DailyExecutions } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  analyticsFileName,
  barDescription,
  barHeight,
  chartTotals,
  createdChange,
  daySuccessRate,
  dayLabel,
  executionStatusText,
  executionTimeChange,
  formatPercent,
  formatRunTime,
  formatStepTime,
  isAnalyticsRange,
  MIN_BAR_HEIGHT,
  RANGE_OPTIONS,
  recentExecutions,
  shareOf,
  slowestAgents,
  successRateChange,
  successTrend,
  utilizationLevel,
  waitTimeChange,
} from './analytics-figures';

function day(date: string, executions: number, successful: number): DailyExecutions {
  return { date, executions, successful, failed: executions - successful, totalTokens: 0 };
}

function period(values: Partial<AnalyticsPeriod>): AnalyticsPeriod {
  return {
    executions: 0,
    successful: 0,
    failed: 0,
    successRate: null,
    avgExecutionTime: 0,
    avgWaitTime: 0,
    totalTokens: 0,
    agentsCreated: 0,
    workflowsCreated: 0,
    ...values,
  };
}

function agent(name: string, executions: number, avgStepTime: number): AgentAnalytics {
  return { agentId: name, name, role: 'role', executions, successRate: null, avgStepTime, totalTokens: 0 };
}

describe('ranges and export', () => {
  it('offers the four ranges with their labels, 7 days being the default', () => {
    expect(RANGE_OPTIONS.map((o) => [o.value, o.label])).toEqual([
      ['24', 'Last 24h'],
      ['7', 'Last 7 days'],
      ['30', 'Last 30 days'],
      ['90', 'Last 90 days'],
    ]);
    expect(isAnalyticsRange('30')).toBe(true);
    expect(isAnalyticsRange('14')).toBe(false);
  });

  it('names the download after the range', () => {
    expect(analyticsFileName('24')).toBe('crewline-analytics-24h.json');
    expect(analyticsFileName('7')).toBe('crewline-analytics-7d.json');
    expect(analyticsFileName('30')).toBe('crewline-analytics-30d.json');
    expect(analyticsFileName('90')).toBe('crewline-analytics-90d.json');
  });
});

describe('success-rate chart', () => {
  it('is the share of successful runs of the day, 0 without runs', () => {
    expect(daySuccessRate({ executions: 4, successful: 3 })).toBe(75);
    expect(daySuccessRate({ executions: 3, successful: 2 })).toBe(67);
    expect(daySuccessRate({ executions: 5, successful: 5 })).toBe(100);
    expect(daySuccessRate({ executions: 2, successful: 0 })).toBe(0);
    expect(daySuccessRate({ executions: 0, successful: 0 })).toBe(0);
  });

  it('draws every bar at least 10 percent high', () => {
    expect(MIN_BAR_HEIGHT).toBe(10);
    expect(barHeight(daySuccessRate({ executions: 0, successful: 0 }))).toBe(10);
    expect(barHeight(0)).toBe(10);
    expect(barHeight(9.9)).toBe(10);
    expect(barHeight(10)).toBe(10);
    expect(barHeight(75)).toBe(75);
    expect(barHeight(100)).toBe(100);
    expect(barHeight(140)).toBe(100);
  });

  it('adds the days up, with no rate when nothing ran', () => {
    expect(chartTotals([day('2026-11-15', 0, 0), day('2026-11-16', 4, 3), day('2026-11-17', 4, 1)])).toEqual({
      executions: 8,
      successful: 4,
      successRate: 50,
    });
    expect(chartTotals([day('2026-11-15', 0, 0)])).toEqual({
      executions: 0,
      successful: 0,
      successRate: null,
    });
  });

  it('labels a bar with its calendar day, whatever the local time zone', () => {
    expect(dayLabel('2026-11-16', 'en-GB')).toBe('Mon 16 Nov');
    expect(barDescription(day('2026-11-16', 4, 3), 'en-GB')).toBe('Mon 16 Nov: 75% success, 4 runs');
    expect(barDescription(day('2026-11-17', 1, 1), 'en-GB')).toBe('Tue 17 Nov: 100% success, 1 run');
    expect(barDescription(day('2026-11-15', 0, 0), 'en-GB')).toBe('Sun 15 Nov: no runs');
  });

  it('sizes a token bar against the busiest day', () => {
    expect(shareOf(50, 200)).toBe(25);
    expect(shareOf(200, 200)).toBe(100);
    expect(shareOf(0, 200)).toBe(0);
    expect(shareOf(0, 0)).toBe(0);
  });
});

describe('trend and utilization', () => {
  it('is up from 80, neutral from 60, down below', () => {
    expect(successTrend(100)).toBe('up');
    expect(successTrend(80)).toBe('up');
    expect(successTrend(79.9)).toBe('neutral');
    expect(successTrend(60)).toBe('neutral');
    expect(successTrend(59.9)).toBe('down');
    expect(successTrend(0)).toBe('down');
  });

  it('lights the dot green above 10 runs, yellow above 5, grey otherwise', () => {
    expect(utilizationLevel(11)).toBe('high');
    expect(utilizationLevel(10)).toBe('medium');
    expect(utilizationLevel(6)).toBe('medium');
    expect(utilizationLevel(5)).toBe('low');
    expect(utilizationLevel(0)).toBe('low');
  });

  it('lists the agents that ran, slowest step first', () => {
    const agents = [agent('fast', 3, 200), agent('idle', 0, 0), agent('slow', 1, 5000), agent('mid', 8, 900)];
    expect(slowestAgents(agents).map((a) => a.name)).toEqual(['slow', 'mid', 'fast']);
    expect(slowestAgents(agents, 1).map((a) => a.name)).toEqual(['slow']);
  });
});

describe('recent activity', () => {
  it('words a run by its status, other statuses as they are', () => {
    expect(executionStatusText('completed')).toBe('completed successfully');
    expect(executionStatusText('failed')).toBe('failed execution');
    expect(executionStatusText('running')).toBe('is running');
    expect(executionStatusText('pending')).toBe('pending');
    expect(executionStatusText('cancelled')).toBe('cancelled');
  });

  it('keeps the 5 newest runs, newest first', () => {
    const list = [1, 7, 3, 5, 2, 6, 4].map((n) => ({ id: `r${n}`, createdAt: `2026-11-0${n}T10:00:00Z` }));
    expect(recentExecutions(list).map((r) => r.id)).toEqual(['r7', 'r6', 'r5', 'r4', 'r3']);
    expect(recentExecutions(list.slice(0, 2)).map((r) => r.id)).toEqual(['r7', 'r1']);
  });
});

describe('figures and changes from the last period', () => {
  it('formats rates and times', () => {
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(66.67)).toBe('66.7%');
    expect(formatPercent(null)).toBe('—');
    expect(formatRunTime(2.34)).toBe('2.3s');
    expect(formatRunTime(0)).toBe('0s');
    expect(formatRunTime(75)).toBe('1m 15s');
    expect(formatRunTime(3720)).toBe('1h 2m');
    expect(formatStepTime(850.4)).toBe('850 ms');
    expect(formatStepTime(1234)).toBe('1.2s');
  });

  it('counts what was created in the range', () => {
    expect(createdChange(3)).toEqual({ text: '+3 from last period', tone: 'positive' });
    expect(createdChange(0)).toEqual({ text: '+0 from last period', tone: 'neutral' });
  });

  it('compares success rates, higher being better', () => {
    const prev = period({ successRate: 62.5 });
    expect(successRateChange(period({ successRate: 75 }), prev)).toEqual({
      text: '+12.5% from last period',
      tone: 'positive',
    });
    expect(successRateChange(period({ successRate: 50 }), prev)).toEqual({
      text: '-12.5% from last period',
      tone: 'negative',
    });
    expect(successRateChange(period({ successRate: 62.5 }), prev).text).toBe('No change from last period');
    expect(successRateChange(period({ successRate: 50 }), period({}))).toEqual({
      text: 'No runs in the last period',
      tone: 'neutral',
    });
    expect(successRateChange(period({}), prev).text).toBe('No runs in this period');
    // Runs that are still going have no outcome yet.
    expect(successRateChange(period({ executions: 2 }), prev).text).toBe('No finished runs in this period');
    expect(successRateChange(period({ successRate: 50 }), period({ executions: 1 })).text).toBe(
      'No finished runs in the last period',
    );
  });

  it('compares average run times, lower being better', () => {
    const prev = period({ successRate: 100, avgExecutionTime: 4.5 });
    expect(executionTimeChange(period({ successRate: 100, avgExecutionTime: 3.3 }), prev)).toEqual({
      text: '-1.2s from last period',
      tone: 'positive',
    });
    expect(executionTimeChange(period({ successRate: 100, avgExecutionTime: 6 }), prev)).toEqual({
      text: '+1.5s from last period',
      tone: 'negative',
    });
    expect(executionTimeChange(period({ successRate: 0, avgExecutionTime: 4.5 }), prev).tone).toBe('neutral');
    expect(executionTimeChange(period({ successRate: 100, avgExecutionTime: 2 }), period({})).text).toBe(
      'No runs in the last period',
    );
  });

  it('compares average waiting times without calling either better', () => {
    const prev = period({ successRate: 100, avgWaitTime: 60 });
    expect(waitTimeChange(period({ successRate: 100, avgWaitTime: 63.5 }), prev)).toEqual({
      text: '+3.5s from last period',
      tone: 'neutral',
    });
    expect(waitTimeChange(period({ successRate: 100, avgWaitTime: 0 }), prev)).toEqual({
      text: '-1m 0s from last period',
      tone: 'neutral',
    });
    expect(waitTimeChange(period({ successRate: 100, avgWaitTime: 7560 }), prev).text).toBe(
      '+2h 5m from last period',
    );
    expect(waitTimeChange(period({ successRate: 100, avgWaitTime: 60 }), prev).text).toBe(
      'No change from last period',
    );
    expect(waitTimeChange(period({ executions: 2, avgWaitTime: 5 }), prev).text).toBe(
      'No finished runs in this period',
    );
  });
});
