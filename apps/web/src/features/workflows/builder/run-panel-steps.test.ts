import type { Execution, NodeOutput } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import type { RunStep } from '@/lib/runs/run-state';

import { panelSteps } from './run-panel-steps';

const output = (agentName: string, content: string): NodeOutput =>
  ({
    content,
    executionTime: 800,
    usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
    metadata: { agentName, role: 'Writer', model: 'gpt-4o' },
  }) as NodeOutput;

const live = (steps: Partial<RunStep>[]): RunStep[] =>
  steps.map((step) => ({
    stepId: 'n1',
    baseNodeId: 'n1',
    agentName: null,
    status: 'running',
    text: '',
    end: 0,
    missed: false,
    ...step,
  }));

const run = (fields: Partial<Execution>) =>
  ({ output: {}, logs: [], steps: [], ...fields }) as Pick<Execution, 'output' | 'logs' | 'steps'>;

describe('run panel steps', () => {
  it('shows the stored answer of a finished step rather than what was streamed', () => {
    const steps = panelSteps(
      run({ output: { n1: output('Writer', 'The whole answer.') } }),
      live([{ stepId: 'n1', status: 'completed', text: 'The whole' }]),
    );
    expect(steps).toEqual([
      expect.objectContaining({
        stepId: 'n1',
        agentName: 'Writer',
        status: 'completed',
        text: 'The whole answer.',
        streaming: false,
        totalTokens: 15,
      }),
    ]);
  });

  it('gives a stored step its cost (null when its model had no price), and none to a step without one', () => {
    const priced = output('Researcher', 'Facts.');
    const steps = panelSteps(
      run({
        output: {
          n1: { ...priced, usage: { ...priced.usage, costUsd: 0.0042 } },
          n2: { ...priced, usage: { ...priced.usage, costUsd: null, unpricedModels: ['my-fine-tune'] } },
          n3: output('Writer', 'Old.'),
        },
      }),
      [],
    );
    expect(steps.map((s) => [s.stepId, s.costUsd])).toEqual([
      ['n1', 0.0042],
      ['n2', null],
      ['n3', undefined],
    ]);
  });

  it('adds the steps still running, with their streamed text, after the finished ones', () => {
    const steps = panelSteps(
      run({
        output: { n1: output('Researcher', 'Facts.') },
        logs: [{ at: '2026-01-01T00:00:00Z', level: 'info', message: 'x', nodeId: 'n1' }],
      }),
      live([
        { stepId: 'n1', status: 'completed', text: 'Facts.' },
        { stepId: 'n2', baseNodeId: 'n2', agentName: 'Writer', text: 'Once upon' },
      ]),
    );
    expect(steps.map((s) => [s.stepId, s.status, s.text, s.streaming])).toEqual([
      ['n1', 'completed', 'Facts.', false],
      ['n2', 'running', 'Once upon', true],
    ]);
  });

  it('shows a step whose stored answer is not read yet with what was streamed, and a failed one with its reason', () => {
    const steps = panelSteps(
      run({
        steps: [
          {
            status: 'failed',
            nodeId: 'n2',
            error: 'OpenAI answered 500',
          } as unknown as NonNullable<Execution['steps']>[number],
        ],
      }),
      live([
        { stepId: 'n1', agentName: 'Writer', status: 'completed', text: 'Done', totalTokens: 9 },
        { stepId: 'n2', status: 'failed', error: 'OpenAI answered 500' },
      ]),
    );
    expect(steps.map((s) => [s.stepId, s.status, s.text || s.error])).toEqual([
      ['n2', 'failed', 'OpenAI answered 500'],
      ['n1', 'completed', 'Done'],
    ]);
  });

  it('is empty before anything was heard or read', () => {
    expect(panelSteps(undefined, live([]))).toEqual([]);
  });

  it('sums up a step that calls no model in one line, named by its node, and leaves skipped nodes out', () => {
    const none = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const evaluation = {
      kind: 'condition' as const,
      evaluated: [{ name: 'Billing', expression: 'input.billing', value: true }],
      result: { branch: 'billing' },
    };
    const steps = panelSteps(
      run({
        output: {
          route: {
            content: '',
            kind: 'condition',
            status: 'completed',
            data: { branch: 'billing' },
            metadata: { baseNodeId: 'route' },
            executionTime: 3,
            usage: none,
          },
          general: {
            content: '',
            kind: 'agent',
            status: 'skipped',
            metadata: { baseNodeId: 'general' },
            executionTime: 0,
            usage: none,
          },
        },
        steps: [
          {
            status: 'completed',
            nodeId: 'route',
            baseNodeId: 'route',
            agentId: null,
            logs: [],
            startedAt: '',
            completedAt: '',
            evaluation,
          },
        ] as unknown as Execution['steps'],
      }),
      live([]),
      (id) => (id === 'route' ? 'Route by topic' : id),
    );
    expect(steps).toEqual([
      expect.objectContaining({
        stepId: 'route',
        agentName: 'Route by topic',
        kind: 'condition',
        text: 'Took the path: Billing',
        evaluation,
        data: { branch: 'billing' },
      }),
    ]);
  });
});
