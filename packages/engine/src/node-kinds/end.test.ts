import { describe, expect, it } from 'vitest';
import { endKind } from './end';
import { validationContext } from './kind-fixtures';

describe('the end kind', () => {
  it('requires an End node, and is satisfied by one', () => {
    expect(endKind.validate([], validationContext())).toEqual(['Workflow must have an end node']);
    expect(endKind.validate([{ id: 'end', type: 'end' }], validationContext())).toEqual([]);
  });

  it('is not a step: a run passes through it', () => {
    expect(endKind.executor).toBeUndefined();
  });
});
