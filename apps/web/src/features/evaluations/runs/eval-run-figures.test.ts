import { describe, expect, it } from 'vitest';

import {
  compareOrder,
  formatShare,
  gradeLabel,
  itemState,
  shortText,
  valueText,
  versionOptionLabel,
} from './eval-run-figures';

describe('the eval run figures', () => {
  it('writes shares as whole percents and a grade with two decimals', () => {
    expect(formatShare(0.85)).toBe('85 %');
    expect(formatShare(1)).toBe('100 %');
    expect(formatShare(null)).toBe('—');
    expect(gradeLabel({ name: 'Exact match', score: 0.75 })).toBe('Exact match 0.75');
  });

  it('tells an item that did not run from one that failed', () => {
    expect(itemState({ passed: true, error: null })).toBe('passed');
    expect(itemState({ passed: false, error: null })).toBe('failed');
    expect(itemState({ passed: null, error: null })).toBe('not_run');
    expect(itemState({ passed: null, error: null }, true)).toBe('pending');
    expect(itemState({ passed: null, error: 'The model is unavailable' }, true)).toBe('not_run');
  });

  it('shows an input of one text field as its text, anything else as JSON, cut short on one line', () => {
    expect(valueText({ message: 'Hi there' })).toBe('Hi there');
    expect(valueText({ a: 1, b: 'x' })).toBe('{\n  "a": 1,\n  "b": "x"\n}');
    expect(valueText(null)).toBe('');
    expect(shortText({ a: 1, b: 'x' })).toBe('{ "a": 1, "b": "x" }');
    expect(shortText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('labels a recorded version with its date and note', () => {
    const label = versionOptionLabel({
      version: 7,
      createdAt: '2026-12-01T10:00:00Z',
      createdBy: null,
      note: 'Shorter',
    });
    expect(label).toMatch(/^v7 · .*2026.* · Shorter$/);
    expect(
      versionOptionLabel({ version: 2, createdAt: '2026-12-01T10:00:00Z', createdBy: null, note: null }),
    ).toMatch(/^v2 · [^·]+$/);
  });

  it('puts the older of two picked runs first', () => {
    const older = { id: 'old', createdAt: '2026-12-01T10:00:00Z' };
    const newer = { id: 'new', createdAt: '2026-12-02T10:00:00Z' };
    expect(compareOrder([newer, older])).toEqual(['old', 'new']);
    expect(compareOrder([older])).toBeNull();
  });
});
