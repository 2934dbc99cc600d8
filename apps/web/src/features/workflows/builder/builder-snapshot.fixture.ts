// The builder state the save and file tests start from: Start → Writer → End, named 'Daily digest'.
import { createAgentNode, defaultNodes } from './builder-nodes';
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
