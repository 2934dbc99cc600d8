import { describe, expect, it } from 'vitest';
import { countAgentNodes, estimateMinutes, estimateSeconds } from './estimate';

describe('run-time estimate', () => {
  it('gives sequential runs 30 seconds per agent', () => {
    expect(estimateSeconds('sequential', 0)).toBe(0);
    expect(estimateSeconds('sequential', 5)).toBe(150);
    expect(estimateMinutes('sequential', 5)).toBe(3); // 2.5 rounds up
    expect(estimateMinutes('sequential', 3)).toBe(2); // 1.5 rounds up
    expect(estimateMinutes('sequential', 1)).toBe(1); // 0.5 rounds up
  });

  it('gives hierarchical runs 80 % of that, never under 30 seconds', () => {
    expect(estimateSeconds('hierarchical', 0)).toBe(30);
    expect(estimateSeconds('hierarchical', 1)).toBe(30);
    expect(estimateSeconds('hierarchical', 10)).toBe(240);
    expect(estimateMinutes('hierarchical', 10)).toBe(4);
  });

  it('gives parallel runs 30 seconds whatever the team size', () => {
    expect(estimateSeconds('parallel', 1)).toBe(30);
    expect(estimateSeconds('parallel', 50)).toBe(30);
    expect(estimateMinutes('parallel', 50)).toBe(1);
  });

  it('counts only agent nodes', () => {
    expect(countAgentNodes([{ type: 'start' }, { type: 'agent' }, { type: 'agent' }, { type: 'end' }])).toBe(
      2,
    );
  });
});
