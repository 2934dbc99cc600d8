import { describe, expect, it } from 'vitest';

import {
  addParameter,
  buildExecuteRequest,
  buildParameters,
  executionFailedToast,
  executionStartedToast,
  nextParameterName,
  PARAMETER_NAME_DUPLICATE,
  PARAMETER_NAME_REQUIRED,
  PARAMETER_NAME_TOO_LONG,
  parameterCountLabel,
  parameterErrors,
  removeParameter,
  renameParameter,
  setParameterValue,
  type ParameterRow,
} from './execute-parameters';

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
  });
});
