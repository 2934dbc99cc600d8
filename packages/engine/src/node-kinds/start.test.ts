import { describe, expect, it } from 'vitest';
import { startKind } from './start';

const none = () => false;

describe('the start kind', () => {
  it('requires a Start node, and is satisfied by one', () => {
    expect(startKind.validate([], { agentExists: none })).toEqual(['Workflow must have a start node']);
    expect(startKind.validate([{ id: 'start', type: 'start' }], { agentExists: none })).toEqual([]);
  });

  it('is not a step: a run passes through it', () => {
    expect(startKind.executor).toBeUndefined();
  });
});
