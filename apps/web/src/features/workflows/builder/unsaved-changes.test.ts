import type { Workflow } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { snapshotOfVersion } from './history/version-diff';
import { hasUnsavedChanges } from './unsaved-changes';

const saved: Pick<
  Workflow,
  'name' | 'description' | 'processType' | 'triggerType' | 'triggerConfig' | 'nodes' | 'edges'
> = {
  name: 'Digest',
  description: 'Weekly',
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
    {
      id: 'n1',
      type: 'agent',
      agentId: 'a1',
      position: { x: 200, y: 100 },
      data: { agentId: 'a1', label: 'Writer', name: 'Writer', role: 'Writes' },
    },
    { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'end' },
  ],
};

describe('hasUnsavedChanges', () => {
  it('is false for the workflow as it was loaded, whatever the edit times', () => {
    const draft = snapshotOfVersion(saved);
    draft.nodes = draft.nodes.map((n) => ({
      ...n,
      data: { ...n.data, lastUpdated: '2030-01-01T00:00:00Z' },
    }));
    expect(hasUnsavedChanges(saved, draft)).toBe(false);
  });

  it('is true after a rename, a property change, a move or a new connection', () => {
    const renamed = snapshotOfVersion(saved);
    renamed.settings = { ...renamed.settings, name: 'Digest 2' };
    expect(hasUnsavedChanges(saved, renamed)).toBe(true);

    const edited = snapshotOfVersion(saved);
    edited.nodes = edited.nodes.map((n) =>
      n.id === 'n1' ? { ...n, data: { ...n.data, label: 'Editor' } } : n,
    );
    expect(hasUnsavedChanges(saved, edited)).toBe(true);

    const moved = snapshotOfVersion(saved);
    moved.nodes = moved.nodes.map((n) => (n.id === 'n1' ? { ...n, position: { x: 260, y: 100 } } : n));
    expect(hasUnsavedChanges(saved, moved)).toBe(true);

    const connected = snapshotOfVersion(saved);
    connected.edges = [...connected.edges, { id: 'e3', source: 'start', target: 'end' }];
    expect(hasUnsavedChanges(saved, connected)).toBe(true);
  });

  it('is true after switching “Require signed calls” on a webhook workflow, and false once saved so', () => {
    const webhook = { ...saved, triggerType: 'webhook' as const };
    const signed = snapshotOfVersion(webhook);
    signed.settings = { ...signed.settings, triggerConfig: { signed: true } };
    expect(hasUnsavedChanges(webhook, signed)).toBe(true);
    expect(hasUnsavedChanges({ ...webhook, triggerConfig: { signed: true } }, signed)).toBe(false);
  });
});
