import { describe, expect, it } from 'vitest';
import type { WorkflowEdge, WorkflowNode } from '@crewline/contracts';
import { replySteps } from './chat-turn';

const node = (id: string, type: WorkflowNode['type']) =>
  ({ id, type, position: { x: 0, y: 0 }, data: {} }) as WorkflowNode;
const edge = (source: string, target: string): WorkflowEdge => ({
  id: `${source}-${target}`,
  source,
  target,
});

describe('replySteps', () => {
  it('streams the last agent step: the one whose only next node is the End', () => {
    const nodes = [
      node('start', 'start'),
      node('triage', 'agent'),
      node('answer', 'agent'),
      node('end', 'end'),
    ];
    const edges = [edge('start', 'triage'), edge('triage', 'answer'), edge('answer', 'end')];
    expect([...replySteps({ processType: 'sequential', nodes, edges })]).toEqual(['answer']);
  });

  it('streams each path’s last agent after a condition, and no step that a guardrail follows', () => {
    const nodes = [
      node('start', 'start'),
      node('route', 'condition'),
      node('billing', 'agent'),
      node('support', 'agent'),
      node('screen', 'guardrail'),
      node('end', 'end'),
    ];
    const edges = [
      edge('start', 'route'),
      edge('route', 'billing'),
      edge('route', 'support'),
      edge('billing', 'end'),
      edge('support', 'screen'),
      edge('screen', 'end'),
    ];
    expect([...replySteps({ processType: 'sequential', nodes, edges })]).toEqual(['billing']);
  });

  it('streams nothing of a parallel or hierarchical workflow (its result is not one answer)', () => {
    const nodes = [node('a', 'agent'), node('b', 'agent')];
    expect(replySteps({ processType: 'parallel', nodes, edges: [] }).size).toBe(0);
    expect(replySteps({ processType: 'hierarchical', nodes, edges: [] }).size).toBe(0);
  });
});
