import type { ExecutionStep, NodeOutput, StepRecord } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  MESSAGE_PREVIEW_CHARS,
  failedStepsWithRecords,
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
