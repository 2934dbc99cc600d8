import type { ExecutionStep, NodeOutput, StepRecord } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  MESSAGE_PREVIEW_CHARS,
  assignmentRows,
  conditionRows,
  failedStepsWithRecords,
  formatValue,
  noModelSummary,
  stepEvaluations,
  messagePreview,
  modelLabel,
  retriesLabel,
  stepRecords,
  teamNote,
} from './step-records';

const record = (extra: Partial<StepRecord> = {}): StepRecord => ({
  agentName: 'Support',
  messages: [
    { role: 'system', content: 'You are Support.' },
    { role: 'user', content: 'Where is order 42?' },
  ],
  answer: 'Shipped',
  toolCalls: [],
  retries: 0,
  provider: 'openai',
  model: 'gpt-4o',
  promptTokens: 10,
  completionTokens: 3,
  ...extra,
});
const base = { baseNodeId: 'n1', agentId: 'a1', logs: [], startedAt: '', completedAt: '' };
const output: NodeOutput = {
  content: 'Shipped',
  metadata: { agentName: 'Support', role: 'r', model: 'gpt-4o' },
  executionTime: 1,
  usage: { promptTokens: 10, completionTokens: 3, totalTokens: 13 },
};
const completed = (nodeId: string, r?: StepRecord): ExecutionStep => ({
  status: 'completed',
  ...base,
  nodeId,
  output,
  metrics: { executionTime: 1, promptTokens: 10, completionTokens: 3, totalTokens: 13 },
  ...(r ? { record: r } : {}),
});

describe('step records', () => {
  it('are found by step id; steps stored before records were kept have none', () => {
    const r = record();
    expect(stepRecords([completed('n1', r), completed('n2')])).toEqual({ n1: r });
    expect(stepRecords(undefined)).toEqual({});
  });

  it('of failed steps are listed on their own, as they have no output', () => {
    const failed: ExecutionStep = {
      status: 'failed',
      ...base,
      nodeId: 'n2',
      error: 'Boom',
      record: record({ answer: null }),
    };
    const steps = [completed('n1', record()), failed];
    expect(failedStepsWithRecords(steps, { n1: output }).map((s) => s.nodeId)).toEqual(['n2']);
    // A failed attempt the run later completed is shown with its output instead.
    expect(failedStepsWithRecords(steps, { n1: output, n2: output })).toEqual([]);
  });
});

describe('messages', () => {
  it('fold when long, by characters or by lines', () => {
    expect(messagePreview('short')).toEqual({ text: 'short', folded: false });
    const long = 'a'.repeat(MESSAGE_PREVIEW_CHARS + 50);
    expect(messagePreview(long)).toEqual({ text: `${'a'.repeat(MESSAGE_PREVIEW_CHARS)}…`, folded: true });
    const many = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const preview = messagePreview(many);
    expect(preview.folded).toBe(true);
    expect(preview.text.split('\n')).toHaveLength(12);
  });
});

describe('facts', () => {
  it('name the provider and model, and count retries', () => {
    expect(modelLabel({ provider: 'anthropic', model: 'claude-3-5-sonnet' })).toBe(
      'Anthropic · claude-3-5-sonnet',
    );
    expect(retriesLabel(0)).toBe('No retries');
    expect(retriesLabel(1)).toBe('1 retry');
    expect(retriesLabel(3)).toBe('3 retries');
  });
});

describe('a hierarchical lead', () => {
  it('that answered alone says which co-workers it had', () => {
    expect(teamNote(record({ team: { coworkers: ['Analyst', 'Writer'], delegations: 0 } }))).toEqual({
      alone: true,
      text: 'The lead answered alone: it delegated nothing to its available co-workers (Analyst, Writer).',
    });
    expect(teamNote(record({ team: { coworkers: [], delegations: 0 } }))?.alone).toBe(true);
  });

  it('that delegated says how often; other steps say nothing', () => {
    expect(teamNote(record({ team: { coworkers: ['Analyst'], delegations: 2 } }))).toEqual({
      alone: false,
      text: 'The lead delegated 2 times to its co-workers (Analyst).',
    });
    expect(teamNote(record())).toBeNull();
  });
});

describe('steps that call no model', () => {
  const evaluation = {
    kind: 'condition' as const,
    // Evaluated in order until one was true: 'Refund' was never evaluated.
    evaluated: [
      { name: 'Billing', expression: 'input.topic == "billing"', value: false },
      { name: 'Urgent', expression: 'nodes.classify.data.urgent', value: true },
    ],
    result: { branch: 'urgent' },
  };
  const branches = [
    { id: 'billing', label: 'Billing', when: 'input.topic == "billing"' },
    { id: 'urgent', label: 'Urgent', when: 'nodes.classify.data.urgent' },
    { id: 'refund', label: 'Refund', when: 'input.refund' },
  ];

  it("lists a condition's branches with their values, the one taken, the ones never evaluated, then else", () => {
    const { rows, taken } = conditionRows(evaluation, branches);
    expect(rows.map((row) => [row.label, row.expression, row.value, row.taken])).toEqual([
      ['Billing', 'input.topic == "billing"', 'false', false],
      ['Urgent', 'nodes.classify.data.urgent', 'true', true],
      ['Refund', 'input.refund', 'not evaluated', false],
      ['Else', null, '', false],
    ]);
    expect(taken).toBe('Urgent');
    // Without the version: what was evaluated, then else.
    expect(conditionRows(evaluation).rows.map((row) => row.label)).toEqual(['Billing', 'Urgent', 'Else']);
  });

  it('takes else when no branch was true', () => {
    const none = {
      evaluated: [{ name: 'Billing', expression: 'false', value: false }],
      result: { branch: 'else' },
    };
    const { rows, taken } = conditionRows(none);
    expect(taken).toBe('Else');
    expect(rows.at(-1)).toMatchObject({ label: 'Else', taken: true });
    expect(noModelSummary({ kind: 'condition', content: '', data: { branch: 'else' } }, none)).toBe(
      'Took the path: Else',
    );
  });

  it("reads a transform's values as name = value, and sums up each kind in one line", () => {
    expect(
      assignmentRows({
        evaluated: [
          { name: 'total', expression: '1 + 2', value: 3 },
          { name: 'tier', expression: 'vars.x', error: 'no such key: x' },
        ],
      }),
    ).toEqual([
      { name: 'total', expression: '1 + 2', value: '3', error: false },
      { name: 'tier', expression: 'vars.x', value: 'no such key: x', error: true },
    ]);
    expect(noModelSummary({ kind: 'transform', content: '', data: { total: 3, tier: 'gold' } })).toBe(
      'Set total = 3, tier = "gold"',
    );
    expect(noModelSummary({ kind: 'merge', content: '', data: [{}, {}] })).toBe('Joined 2 inputs');
    expect(noModelSummary({ kind: 'merge', content: 'A\n\nB', data: [{}, {}] })).toBe('A\n\nB');
    expect(noModelSummary({ kind: 'condition', content: '', data: { branch: 'urgent' } }, evaluation)).toBe(
      'Took the path: Urgent',
    );
  });

  it('formats values in one line, cut when long', () => {
    expect(formatValue('hi')).toBe('"hi"');
    expect(formatValue({ a: [1, true, null] })).toBe('{"a":[1,true,null]}');
    expect(formatValue(undefined)).toBe('—');
    expect(formatValue('x'.repeat(200), 10)).toBe('"xxxxxxxx…');
  });

  it("keeps each step's evaluation by step id", () => {
    const steps = [
      { nodeId: 'route', status: 'completed', evaluation },
      { nodeId: 'writer', status: 'completed' },
    ] as unknown as ExecutionStep[];
    expect(stepEvaluations(steps)).toEqual({ route: evaluation });
    expect(stepEvaluations(undefined)).toEqual({});
  });
});
