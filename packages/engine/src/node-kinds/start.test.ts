import { describe, expect, it } from 'vitest';
import { startKind } from './start';
import { validationContext } from './kind-fixtures';

describe('the start kind', () => {
  it('requires a Start node, and is satisfied by one', () => {
    expect(startKind.validate([], validationContext())).toEqual(['Workflow must have a start node']);
    expect(startKind.validate([{ id: 'start', type: 'start' }], validationContext())).toEqual([]);
  });

  it('is not a step: a run passes through it', () => {
    expect(startKind.executor).toBeUndefined();
  });
});
