import { nodeKindValues } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { engineNodeKinds, isStepKind } from './index';

describe('the engine’s node-kind registry', () => {
  it('has one entry for each of the contracts’ kinds, under its own name', () => {
    expect(Object.keys(engineNodeKinds).sort()).toEqual([...nodeKindValues].sort());
    for (const kind of nodeKindValues) expect(engineNodeKinds[kind].kind).toBe(kind);
  });

  it('runs agent nodes as steps and passes through Start and End', () => {
    expect(nodeKindValues.filter(isStepKind)).toEqual(['agent']);
  });
});
