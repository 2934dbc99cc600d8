import { describe, expect, it } from 'vitest';

import {
  addParameter,
  buildExecuteRequest,
  buildParameters,
  cancelFailedToast,
  executionDurationSeconds,
  executionFailedToast,
  executionMetrics,
  stepsLabel,
  executionOutputFileName,
  executionStartedToast,
  formatOutputJson,
  hasOutput,
  hasResult,
  isExecutionActive,
  nextParameterName,
  PARAMETER_NAME_DUPLICATE,
  PARAMETER_NAME_REQUIRED,
  PARAMETER_NAME_TOO_LONG,
  parameterCountLabel,
  parameterErrors,
  processTypeLabel,
  removeParameter,
  renameParameter,
  setParameterValue,
  sortExecutionsNewestFirst,
  triggeredByLabel,
  type ParameterRow,
} from './execution-logic';

const names = (rows: ParameterRow[]) => rows.map((row) => row.name);

describe('parameters editor', () => {
  it('names new parameters param_N with the next free number', () => {
    expect(nextParameterName([])).toBe('param_1');
    expect(nextParameterName(['param_1'])).toBe('param_2');
    expect(nextParameterName(['region', 'param_2'])).toBe('param_3');
    // param_1 was removed from param_1, param_2: the next is param_3, never a second param_2.
    expect(nextParameterName(['param_2'])).toBe('param_3');
    expect(nextParameterName(['param_3', 'x'])).toBe('param_4');
  });

  it('adds rows with an empty value and stable ids', () => {
    let rows = addParameter([]);
    rows = addParameter(rows);
    expect(rows).toEqual([
      { id: 1, name: 'param_1', value: '' },
      { id: 2, name: 'param_2', value: '' },
    ]);
    rows = removeParameter(rows, 1);
    rows = addParameter(rows);
    expect(rows.map((row) => row.id)).toEqual([2, 3]);
    expect(names(rows)).toEqual(['param_2', 'param_3']);
  });

  it('renames in place: the order and the value stay, the old key is gone', () => {
    let rows = addParameter(addParameter(addParameter([])));
    rows = setParameterValue(rows, 2, 'EU');
    rows = renameParameter(rows, 2, 'region');
    expect(rows).toEqual([
      { id: 1, name: 'param_1', value: '' },
      { id: 2, name: 'region', value: 'EU' },
      { id: 3, name: 'param_3', value: '' },
    ]);
    expect(Object.keys(buildParameters(rows))).toEqual(['param_1', 'region', 'param_3']);
    expect(buildParameters(rows)).not.toHaveProperty('param_2');
  });

  it('reports empty, too long and duplicate names on the offending row', () => {
    let rows = addParameter(addParameter(addParameter([])));
    expect(parameterErrors(rows)).toEqual({});
    rows = renameParameter(rows, 1, '  ');
    rows = renameParameter(rows, 3, 'param_2 ');
    expect(parameterErrors(rows)).toEqual({ 1: PARAMETER_NAME_REQUIRED, 3: PARAMETER_NAME_DUPLICATE });
    rows = renameParameter(rows, 1, 'x'.repeat(101));
    expect(parameterErrors(rows)[1]).toBe(PARAMETER_NAME_TOO_LONG);
  });

  it('builds the execute body with trimmed names and optional instructions', () => {
    const rows: ParameterRow[] = [
      { id: 1, name: ' region ', value: 'EU' },
      { id: 2, name: 'tone', value: '' },
    ];
    expect(buildExecuteRequest('  Be brief  ', rows)).toEqual({
      input: {},
      dynamicInstructions: 'Be brief',
      parameters: { region: 'EU', tone: '' },
    });
    expect(buildExecuteRequest('   ', [])).toEqual({ input: {}, dynamicInstructions: null, parameters: {} });
  });

  it('counts parameters', () => {
    expect(parameterCountLabel(1)).toBe('1 parameter');
    expect(parameterCountLabel(3)).toBe('3 parameters');
  });
});

describe('toasts', () => {
  it('names the workflow when started and appends the server reason when starting fails', () => {
    expect(executionStartedToast('Digest', 'Only the headlines')).toEqual({
      title: 'Workflow Started',
      description: '"Digest" execution has been started with custom instructions',
    });
    expect(executionStartedToast('Digest')).toEqual({
      title: 'Workflow Started',
      description: '"Digest" execution has been started',
    });
    expect(executionStartedToast('Digest', '   ').description).toBe('"Digest" execution has been started');
    expect(executionFailedToast()).toEqual({
      variant: 'destructive',
      title: 'Execution Failed',
      description: 'Failed to start workflow execution',
    });
    expect(executionFailedToast('This workflow is a draft.').description).toBe(
      'Failed to start workflow execution: This workflow is a draft.',
    );
    expect(cancelFailedToast(null).description).toBe('Failed to cancel the execution');
  });
});

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
    expect(processTypeLabel(null)).toBe('Unknown');
    expect(processTypeLabel('parallel')).toBe('Parallel');
  });

  it('knows active runs and non-empty outputs', () => {
    expect(isExecutionActive('pending')).toBe(true);
    expect(isExecutionActive('running')).toBe(true);
    expect(isExecutionActive('completed')).toBe(false);
    expect(isExecutionActive('cancelled')).toBe(false);
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
