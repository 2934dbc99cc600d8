import { describe, expect, it } from 'vitest';
import { endKind } from './end';

const none = () => false;

describe('the end kind', () => {
  it('requires an End node, and is satisfied by one', () => {
    expect(endKind.validate([], { agentExists: none })).toEqual(['Workflow must have an end node']);
    expect(endKind.validate([{ id: 'end', type: 'end' }], { agentExists: none })).toEqual([]);
  });

  it('is not a step: a run passes through it', () => {
    expect(endKind.executor).toBeUndefined();
  });
});
