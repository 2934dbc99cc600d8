import { isRunActive } from '@crewline/contracts/vocabulary';
import { describe, expect, it } from 'vitest';

import {
  cancelFailedToast,
  cardCostText,
  runCostFact,
  stepCostText,
  executionDurationSeconds,
  executionMetrics,
  stepsLabel,
  executionOutputFileName,
  executionWorkflowName,
  formatOutputJson,
  hasOutput,
  hasResult,
  processTypeLabel,
  ranCount,
  readableOutputs,
  shortId,
  sortExecutionsNewestFirst,
  triggeredByLabel,
  waitingText,
} from './execution-facts';

describe('execution card fields', () => {
  const start = '2024-05-01T10:00:00.000Z';
  const now = Date.parse('2024-05-01T10:01:05.900Z');

  it('measures whole seconds to completion, or to now while active', () => {
    expect(
      executionDurationSeconds(
        { status: 'completed', startedAt: start, completedAt: '2024-05-01T10:00:42.999Z' },
        now,
      ),
    ).toBe(42);
    expect(executionDurationSeconds({ status: 'running', startedAt: start, completedAt: null }, now)).toBe(
      65,
    );
    expect(
      executionDurationSeconds({ status: 'pending', startedAt: null, completedAt: null }, now),
    ).toBeNull();
    // Finished without a completion time: no made-up ever-growing number.
    expect(
      executionDurationSeconds({ status: 'failed', startedAt: start, completedAt: null }, now),
    ).toBeNull();
  });

  it('falls back to System and Unknown', () => {
    expect(triggeredByLabel({ trigger: 'manual', triggeredByName: null })).toBe('System');
    expect(triggeredByLabel({ trigger: 'manual', triggeredByName: 'Eve Tester' })).toBe('Eve Tester');
    expect(triggeredByLabel({ trigger: 'schedule', triggeredByName: null })).toBe('Schedule');
    expect(triggeredByLabel({ trigger: 'webhook', triggeredByName: null })).toBe('Webhook');
    expect(triggeredByLabel({ trigger: 'email', triggeredByName: null })).toBe('Email');
    // A run an MCP client started names the client after the trigger.
    expect(triggeredByLabel({ trigger: 'mcp', triggerDetail: 'Claude', triggeredByName: null })).toBe(
      'MCP · Claude',
    );
    expect(triggeredByLabel({ trigger: 'mcp', triggerDetail: null, triggeredByName: null })).toBe('MCP');
    expect(processTypeLabel(null)).toBe('Unknown');
    expect(processTypeLabel('parallel')).toBe('Parallel');
  });

  it('knows active runs and non-empty outputs', () => {
    expect(isRunActive('pending')).toBe(true);
    expect(isRunActive('running')).toBe(true);
    expect(isRunActive('completed')).toBe(false);
    expect(isRunActive('cancelled')).toBe(false);
    expect(hasOutput({})).toBe(false);
    expect(hasOutput({ n1: { content: 'x' } })).toBe(true);
    // The card's Output box reads the summary's result text.
    expect(hasResult(null)).toBe(false);
    expect(hasResult('')).toBe(false);
    expect(hasResult('The answer')).toBe(true);
  });

  it('names and fills the download', () => {
    expect(executionOutputFileName('0123456789abcdef')).toBe('execution-01234567-output.json');
    expect(formatOutputJson({ n1: { content: 'x' } })).toBe('{\n  "n1": {\n    "content": "x"\n  }\n}');
    expect(formatOutputJson(null)).toBe('{}');
  });

  it('shows the figures a run has, and none before it completes', () => {
    expect(
      executionMetrics({
        totalTokens: 12,
        promptTokens: 8,
        completionTokens: 4,
        steps: 2,
        durationMs: 5,
        reusedSteps: 1,
      }),
    ).toEqual({ totalTokens: 12, promptTokens: 8, completionTokens: 4, steps: 2 });
    // A running or failed run has no metrics yet.
    expect(executionMetrics({})).toEqual({
      totalTokens: null,
      promptTokens: null,
      completionTokens: null,
      steps: null,
    });
    // Zero is a figure, not a missing one.
    expect(executionMetrics({ totalTokens: 0 }).totalTokens).toBe(0);
  });

  it('sorts newest first', () => {
    const list = [
      { id: 'a', createdAt: '2024-01-01T00:00:00Z' },
      { id: 'b', createdAt: '2024-03-01T00:00:00Z' },
      { id: 'c', createdAt: 'not a date' },
    ];
    expect(sortExecutionsNewestFirst(list).map((e) => e.id)).toEqual(['b', 'a', 'c']);
  });
});

describe('what a run cost', () => {
  it('shows the amount, or Unknown naming the models without a price, and nothing without a cost', () => {
    expect(runCostFact({ costUsd: 0.0042 })).toEqual({ amount: '$0.0042', note: null });
    expect(runCostFact({ costUsd: null, unpricedModels: ['my-fine-tune', 'llama3'] })).toEqual({
      amount: 'Unknown',
      note: 'No price for my-fine-tune, llama3',
    });
    expect(runCostFact({ costUsd: null })).toEqual({ amount: 'Unknown', note: null });
    // No model call, a run not ended, or one from before costs.
    expect(runCostFact({})).toBeNull();
  });

  it('says a step’s and a card’s cost, unknown ones as such, and nothing without one', () => {
    expect(stepCostText(0.52)).toBe('$0.52');
    expect(stepCostText(null)).toBe('cost unknown');
    expect(stepCostText(undefined)).toBeNull();
    expect(cardCostText(1.25)).toBe('$1.25');
    expect(cardCostText(null)).toBe('Cost unknown');
    expect(cardCostText(undefined)).toBeNull();
  });

  it('reads each step’s cost with its tokens', () => {
    const metadata = { agentName: 'Writer' };
    const usage = { promptTokens: 30, completionTokens: 12, totalTokens: 42 };
    const outputs = readableOutputs({
      priced: { content: 'a', metadata, executionTime: 1, usage: { ...usage, costUsd: 0.000195 } },
      unpriced: { content: 'b', metadata, executionTime: 1, usage: { ...usage, costUsd: null } },
      before: { content: 'c', metadata, executionTime: 1, usage },
    });
    expect(outputs.map((output) => [output.nodeId, output.costUsd])).toEqual([
      ['priced', 0.000195],
      ['unpriced', null],
      ['before', undefined],
    ]);
    expect('costUsd' in outputs[2]!).toBe(false);
  });
});

describe('the details’ Steps', () => {
  it('counts a run that ended short of its plan out of the planned steps', () => {
    expect(stepsLabel(1, 2)).toBe('1 / 2');
    expect(stepsLabel(0, 3)).toBe('0 / 3');
  });

  it('shows the count alone once every planned step ran, or when the plan is unknown', () => {
    expect(stepsLabel(2, 2)).toBe('2');
    expect(stepsLabel(4, null)).toBe('4');
    expect(stepsLabel(null, 2)).toBe('—');
  });
});

describe('execution names, outputs and Cancel', () => {
  it('shortens ids to 8 characters and names unknown workflows', () => {
    expect(shortId('0123456789abcdef')).toBe('01234567');
    expect(executionWorkflowName({ workflowId: 'w1', workflowName: 'Named' }, [])).toBe('Named');
    expect(
      executionWorkflowName({ workflowId: 'w1', workflowName: null }, [{ id: 'w1', name: 'From list' }]),
    ).toBe('From list');
    expect(executionWorkflowName({ workflowId: 'gone', workflowName: null }, [])).toBe('Unknown Workflow');
  });

  it('reads the steps that have text, with their agent and figures', () => {
    const usage = { promptTokens: 30, completionTokens: 12, totalTokens: 42 };
    const metadata = { agentName: 'Writer', role: 'Copywriter', model: 'gpt-4o' };
    expect(
      readableOutputs({
        n1: { content: 'Hello', metadata, executionTime: 120, usage },
        n2: { content: '   ', metadata, executionTime: 5, usage },
        n3: { content: 'Unnamed', metadata: { ...metadata, agentName: '' }, executionTime: 7, usage },
      }),
    ).toEqual([
      {
        nodeId: 'n1',
        kind: 'agent',
        status: 'completed',
        content: 'Hello',
        agentName: 'Writer',
        role: 'Copywriter',
        model: 'gpt-4o',
        executionTime: 120,
        totalTokens: 42,
      },
      {
        nodeId: 'n3',
        kind: 'agent',
        status: 'completed',
        content: 'Unnamed',
        agentName: 'Agent',
        role: 'Copywriter',
        model: 'gpt-4o',
        executionTime: 7,
        totalTokens: 42,
      },
    ]);
    expect(readableOutputs({})).toEqual([]);
  });

  it('lists the steps of other kinds by their node label (else their kind), and the skipped ones as skipped', () => {
    const none = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const nodes = [
      { id: 'route', type: 'condition', data: { label: 'Route by topic' } },
      { id: 'set', type: 'transform', data: {} },
      { id: 'billing', type: 'agent', data: { label: 'Billing desk' } },
    ];
    const route = {
      content: '',
      kind: 'condition' as const,
      status: 'completed' as const,
      data: { branch: 'else' },
      metadata: { baseNodeId: 'route' },
      executionTime: 2,
      usage: none,
    };
    const outputs = readableOutputs(
      {
        route,
        set: {
          content: '',
          kind: 'transform',
          status: 'completed',
          data: { total: 3 },
          metadata: {},
          executionTime: 1,
          usage: none,
        },
        billing: {
          content: '',
          kind: 'agent',
          status: 'skipped',
          metadata: { baseNodeId: 'billing' },
          executionTime: 0,
          usage: none,
        },
      },
      nodes,
    );
    expect(outputs.map((o) => [o.nodeId, o.agentName, o.kind, o.status, o.role, o.data])).toEqual([
      ['route', 'Route by topic', 'condition', 'completed', '', { branch: 'else' }],
      ['set', 'Transform', 'transform', 'completed', '', { total: 3 }],
      ['billing', 'Billing desk', 'agent', 'skipped', '', undefined],
    ]);
    // Skipped steps are not counted as steps of the run; without the version a condition is 'Condition'.
    expect(ranCount(outputs)).toBe(2);
    expect(readableOutputs({ route })[0]?.agentName).toBe('Condition');
  });

  it('falls back to a fixed text when Cancel fails without a reason', () => {
    expect(cancelFailedToast(null).description).toBe('Failed to cancel the execution');
  });
});

describe('waitingText', () => {
  const since = '2026-01-01T10:00:00.000Z';
  it('names the approval a run waits for', () => {
    expect(waitingText({ kind: 'approval', title: 'Refund over 500 €', until: null })).toBe(
      'Waiting for approval · Refund over 500 €',
    );
    expect(waitingText({ kind: 'approval', title: '', until: since })).toBe('Waiting for approval');
  });

  it('says until when a delay waits, in local time', () => {
    const text = waitingText({ kind: 'delay', title: 'Delay', until: '2026-03-04T15:30:00.000Z' }, 'en-GB');
    expect(text).toMatch(/^Waiting until 4 Mar 2026, \d{2}:30$/);
    expect(waitingText({ kind: 'delay', title: 'Delay', until: null })).toBe('Waiting');
  });

  it('says nothing for a run that waits for nothing', () => {
    expect(waitingText(null)).toBeNull();
    expect(waitingText(undefined)).toBeNull();
  });
});
