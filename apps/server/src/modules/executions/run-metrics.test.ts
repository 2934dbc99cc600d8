import { describe, expect, it } from 'vitest';
import type { Execution, NodeOutput } from '@crewline/contracts';
import { withEndedRunMetrics } from './run-metrics';

const step = (totalTokens: number, reused = false): NodeOutput => ({
  content: 'text',
  metadata: {
    agentName: 'Agent',
    role: 'Role',
    model: 'gpt-4o',
    ...(reused ? { reused, reusedFrom: 'r0' } : {}),
  },
  executionTime: 5,
  usage: { promptTokens: totalTokens - 1, completionTokens: 1, totalTokens },
});

const run = (fields: Partial<Execution>): Execution =>
  ({
    status: 'failed',
    output: {},
    metrics: {},
    startedAt: '2026-01-01T00:00:00.000Z',
    completedAt: '2026-01-01T00:00:07.500Z',
    ...fields,
  }) as Execution;

describe('a failed or cancelled run’s figures', () => {
  it('count the steps it completed and the tokens of its own model calls', () => {
    for (const status of ['failed', 'cancelled'] as const) {
      const counted = withEndedRunMetrics(run({ status, output: { n1: step(30, true), n2: step(12) } }));
      expect(counted.metrics).toEqual({
        promptTokens: 11,
        completionTokens: 1,
        totalTokens: 12,
        steps: 2,
        reusedSteps: 1,
        durationMs: 7500,
      });
    }
  });

  it('leave stored figures, and running runs, as they are', () => {
    const completed = run({
      status: 'completed',
      output: { n1: step(5) },
      metrics: { totalTokens: 5, steps: 1 },
    });
    expect(withEndedRunMetrics(completed)).toBe(completed);
    const running = run({ status: 'running', output: { n1: step(5) }, completedAt: null });
    expect(withEndedRunMetrics(running).metrics).toEqual({});
  });
});
