import { nodeKindValues } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import type { BuilderNode } from '../types';
import { normalizeNodeData } from '../builder-nodes';
import { builderNodeKinds, miniMapColor, nodeTypes } from './index';

const nodeOf = (type: BuilderNode['type'], data: Record<string, unknown> = {}): BuilderNode => ({
  id: 'n1',
  type,
  position: { x: 0, y: 0 },
  data: normalizeNodeData(type!, data),
});

describe('the builder’s node-kind registry', () => {
  it('has one entry for each of the contracts’ kinds, and the canvas draws each kind with its node', () => {
    expect(Object.keys(builderNodeKinds).sort()).toEqual([...nodeKindValues].sort());
    expect(Object.keys(nodeTypes).sort()).toEqual([...nodeKindValues].sort());
    for (const kind of nodeKindValues) {
      expect(builderNodeKinds[kind].kind).toBe(kind);
      expect(nodeTypes[kind]).toBe(builderNodeKinds[kind].Node);
    }
  });

  it('colours Start green and End red on the minimap, an agent in its own colour (indigo without)', () => {
    expect(miniMapColor(nodeOf('start'))).toBe('#10b981');
    expect(miniMapColor(nodeOf('end'))).toBe('#f43f5e');
    expect(miniMapColor(nodeOf('agent', { color: '#0ea5e9' }))).toBe('#0ea5e9');
    expect(miniMapColor({ ...nodeOf('agent'), data: { ...nodeOf('agent').data, color: '' } })).toBe(
      '#6366f1',
    );
  });

  it('colours each step kind on the minimap as its palette icon (a note paler)', () => {
    expect(miniMapColor(nodeOf('condition'))).toBe(builderNodeKinds.condition.accent);
    expect(miniMapColor(nodeOf('merge'))).toBe(builderNodeKinds.merge.accent);
    expect(miniMapColor(nodeOf('approval'))).toBe(builderNodeKinds.approval.accent);
    expect(miniMapColor(nodeOf('delay'))).toBe(builderNodeKinds.delay.accent);
    // Each step kind has a colour of its own, to tell them apart on the canvas and in the palette.
    const steps = nodeKindValues.filter((k) => !['start', 'end', 'agent', 'note'].includes(k));
    expect(new Set(steps.map((k) => builderNodeKinds[k].accent)).size).toBe(steps.length);
    expect(miniMapColor(nodeOf('note'))).toBe('#fde047');
  });

  it('gives every kind but Start and End a panel of its own, and only agents a summary above it', () => {
    expect(nodeKindValues.filter((k) => !builderNodeKinds[k].PanelSettings)).toEqual(['start', 'end']);
    expect(nodeKindValues.filter((k) => builderNodeKinds[k].PanelSummary)).toEqual(['agent']);
    // A note is its text: no Label and Description fields.
    expect(nodeKindValues.filter((k) => builderNodeKinds[k].ownFieldsOnly)).toEqual(['note']);
  });
});
