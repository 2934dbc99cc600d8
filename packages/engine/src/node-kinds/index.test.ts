import { isStepKind, nodeKinds, nodeKindValues } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { engineNodeKinds } from './index';

describe('the engine’s node-kind registry', () => {
  it('has one entry for each of the contracts’ kinds, under its own name', () => {
    expect(Object.keys(engineNodeKinds).sort()).toEqual([...nodeKindValues].sort());
    for (const kind of nodeKindValues) expect(engineNodeKinds[kind].kind).toBe(kind);
  });

  it('runs agents, conditions, guardrails, tools, transforms, code, maps, loops, merges, approvals and delays as steps, and passes through Start, End and notes', () => {
    expect(nodeKindValues.filter(isStepKind)).toEqual([
      'agent',
      'condition',
      'guardrail',
      'tool',
      'transform',
      'code',
      'map',
      'loop',
      'merge',
      'approval',
      'delay',
    ]);
  });

  it('has an executor exactly for the kinds the contracts call steps', () => {
    for (const kind of nodeKindValues)
      expect(engineNodeKinds[kind].executor !== undefined).toBe(nodeKinds[kind].step);
  });
});
