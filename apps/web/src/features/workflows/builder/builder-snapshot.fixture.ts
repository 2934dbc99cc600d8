// The builder states the save and file tests start from: Start → Writer → End, named 'Daily digest',
// and a workflow with a condition, a transform, a merge and a note.
import { createAgentNode, createKindNode, defaultNodes } from './builder-nodes';
import { DEFAULT_SETTINGS, type BuilderSnapshot } from './workflow-save';

const agentNode = createAgentNode(
  { id: 'a1', name: 'Writer', role: 'Writes', llmModel: 'gpt-4o' },
  { x: 315, y: 240 },
  { id: 'n1', color: '#6366f1', now: '2026-01-01T00:00:00.000Z' },
);

/** The sample workflow with `overrides` on its settings. */
export function snapshot(overrides: Partial<BuilderSnapshot['settings']> = {}): BuilderSnapshot {
  return {
    settings: { ...DEFAULT_SETTINGS, name: 'Daily digest', ...overrides },
    nodes: [...defaultNodes('2026-01-01T00:00:00.000Z'), agentNode],
    edges: [
      { id: 'e1', source: 'start', target: 'n1', animated: true, selected: true },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
  };
}

const at = '2026-01-01T00:00:00.000Z';

/**
 * A workflow that decides: Start → Classify (an agent with an output schema) → Route (a condition:
 * billing, else) → the billing branch sets a value (Transform) → Join (a merge, also the else path's
 * end) → End, with a note beside them.
 */
export function decidingSnapshot(overrides: Partial<BuilderSnapshot['settings']> = {}): BuilderSnapshot {
  const classify = createAgentNode(
    { id: 'a1', name: 'Classifier', role: 'Sorts', llmModel: 'gpt-4o' },
    { x: 300, y: 100 },
    { id: 'classify', color: '#6366f1', now: at },
  );
  classify.data.outputSchema = {
    type: 'object',
    properties: { category: { type: 'string', enum: ['billing', 'other'] } },
    required: ['category'],
    additionalProperties: false,
  };
  const route = createKindNode('condition', { x: 600, y: 100 }, { id: 'route', now: at });
  route.data.label = 'Route';
  route.data.branches = [
    { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
  ];
  const setPriority = createKindNode('transform', { x: 900, y: 0 }, { id: 'priority', now: at });
  setPriority.data.assignments = [{ name: 'priority', value: '"high"' }];
  const join = createKindNode('merge', { x: 1200, y: 100 }, { id: 'join', now: at });
  join.data.label = 'Join';
  const note = createKindNode('note', { x: 600, y: 400 }, { id: 'note', now: at });
  note.data.text = 'Billing questions go first.';
  return {
    settings: { ...DEFAULT_SETTINGS, name: 'Triage', ...overrides },
    nodes: [...defaultNodes(at), classify, route, setPriority, join, note],
    edges: [
      { id: 'e1', source: 'start', target: 'classify' },
      { id: 'e2', source: 'classify', target: 'route' },
      { id: 'e3', source: 'route', target: 'priority', sourceHandle: 'billing' },
      { id: 'e4', source: 'route', target: 'join', sourceHandle: 'else' },
      { id: 'e5', source: 'priority', target: 'join' },
      { id: 'e6', source: 'join', target: 'end' },
    ],
  };
}
