import type { WorkflowDefinition, WorkflowNode } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  diffVersion,
  isSameAsDraft,
  SECRET_CHANGED,
  SECRET_SET,
  snapshotOfVersion,
  summarizeDiff,
} from './version-diff';

const agentNode = (
  id: string,
  data: Record<string, unknown> = {},
  position = { x: 200, y: 100 },
): WorkflowNode => ({
  id,
  type: 'agent',
  agentId: (data.agentId as string) ?? 'a1',
  position,
  data: {
    agentId: 'a1',
    label: 'Writer',
    name: 'Writer',
    role: 'Writes',
    lastUpdated: '2024-01-01T00:00:00Z',
    ...data,
  },
});

function version(patch: Partial<WorkflowDefinition> = {}): WorkflowDefinition {
  return {
    name: 'Digest',
    description: 'Weekly',
    processType: 'sequential',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
      agentNode('n1'),
      { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
    config: {},
    ...patch,
  };
}

/** The draft as the builder holds it after loading `def` (the same conversion as opening the workflow). */
const draftOf = (def: WorkflowDefinition) => snapshotOfVersion(def);

describe('diffVersion', () => {
  it('lists a changed budget with the Budget section’s labels', () => {
    const saved = version({ config: { budget: { monthlyCapUsd: 20 }, retries: 1 } });
    const draft = draftOf(saved);
    expect(isSameAsDraft(diffVersion(saved, draft))).toBe(true);
    draft.settings = {
      ...draft.settings,
      budget: {
        ...draft.settings.budget,
        maxCostPerRunUsd: '0.5',
        monthlyCapUsd: '',
        onExceeded: 'approval',
      },
    };
    expect(diffVersion(saved, draft).workflow).toEqual([
      { key: 'maxCostPerRunUsd', label: 'Max cost per run (USD)', version: '', draft: '0.5' },
      { key: 'monthlyCapUsd', label: 'Monthly cap (USD)', version: '20', draft: '' },
      {
        key: 'onExceeded',
        label: 'When a run reaches its budget',
        version: '',
        draft: 'Ask for approval to go on',
      },
    ]);
  });

  it('finds nothing between a version and the draft loaded from it, even with other edit times', () => {
    const draft = draftOf(version());
    draft.nodes = draft.nodes.map((n) => ({
      ...n,
      data: { ...n.data, lastUpdated: '2030-01-01T00:00:00Z' },
    }));
    const diff = diffVersion(version(), draft);
    expect(isSameAsDraft(diff)).toBe(true);
    expect(summarizeDiff(diff)).toBe('Same as the current draft');
  });

  it('lists a changed node property with the Properties tab label, version on the left', () => {
    const draft = draftOf(
      version({ nodes: [agentNode('n1', { description: 'Short and clear', outputFormat: 'markdown' })] }),
    );
    const diff = diffVersion(version({ nodes: [agentNode('n1')] }), draft);
    expect(diff.nodes).toEqual([
      {
        id: 'n1',
        label: 'Writer',
        type: 'agent',
        status: 'changed',
        moved: false,
        changes: [
          { key: 'description', label: 'Description', version: '', draft: 'Short and clear' },
          { key: 'outputFormat', label: 'Output Format', version: 'Text', draft: 'Markdown' },
        ],
      },
    ]);
  });

  it('reports a moved node as moved only, with no property change', () => {
    const draft = draftOf(version({ nodes: [agentNode('n1', {}, { x: 500, y: 300 })] }));
    const diff = diffVersion(version({ nodes: [agentNode('n1')] }), draft);
    expect(diff.nodes).toEqual([
      expect.objectContaining({ id: 'n1', status: 'changed', moved: true, changes: [] }),
    ]);
  });

  it('names agents by their current name, else the name the node kept', () => {
    const v = version({ nodes: [agentNode('n1', { agentId: 'a1', name: 'Old writer' })] });
    const draft = draftOf(version({ nodes: [agentNode('n1', { agentId: 'a2', name: 'Editor' })] }));
    const names: Record<string, string> = { a2: 'Chief editor' };
    expect(diffVersion(v, draft, { agentName: (id) => names[id] }).nodes[0].changes).toEqual([
      { key: 'agentId', label: 'Agent', version: 'Old writer', draft: 'Chief editor' },
    ]);
  });

  it('lists nodes and connections added and removed, named by their labels', () => {
    const v = version();
    const draft = draftOf(
      version({
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
          agentNode('n2', { label: 'Editor' }),
          { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: { label: 'End' } },
        ],
        edges: [
          { id: 'x1', source: 'start', target: 'n2' },
          { id: 'x2', source: 'n2', target: 'end' },
        ],
      }),
    );
    const diff = diffVersion(v, draft);
    expect(diff.nodes.map((n) => [n.status, n.label])).toEqual([
      ['removed', 'Writer'],
      ['added', 'Editor'],
    ]);
    expect(diff.edges.map((e) => [e.status, `${e.sourceLabel} → ${e.targetLabel}`])).toEqual([
      ['removed', 'Start → Writer'],
      ['removed', 'Writer → End'],
      ['added', 'Start → Editor'],
      ['added', 'Editor → End'],
    ]);
    expect(summarizeDiff(diff)).toBe(
      '1 node added · 1 node removed · 2 connections added · 2 connections removed',
    );
  });

  it('treats a connection as the pair it joins, whatever its id', () => {
    const draft = draftOf(
      version({
        edges: [
          { id: 'e-start-n1', source: 'start', target: 'n1' },
          { id: 'other', source: 'n1', target: 'end' },
        ],
      }),
    );
    expect(diffVersion(version(), draft).edges).toEqual([]);
  });

  it('lists workflow settings field by field with readable values, never a webhook secret', () => {
    const v = version({ triggerType: 'webhook', triggerConfig: { secret: 'old-secret' } });
    const draft = draftOf(
      version({
        name: 'Digest 2',
        description: null,
        processType: 'parallel',
        triggerType: 'webhook',
        triggerConfig: { secret: 'new-secret' },
      }),
    );
    const diff = diffVersion(v, draft);
    expect(diff.workflow).toEqual([
      { key: 'name', label: 'Name', version: 'Digest', draft: 'Digest 2' },
      { key: 'description', label: 'Description', version: 'Weekly', draft: '' },
      { key: 'processType', label: 'Process Type', version: 'Sequential', draft: 'Parallel' },
      { key: 'secret', label: 'Webhook Secret', version: SECRET_SET, draft: SECRET_CHANGED },
    ]);
    expect(JSON.stringify(diff)).not.toMatch(/old-secret|new-secret/);
  });

  it('ignores trigger fields of another trigger type that the save would drop', () => {
    const draft = draftOf(version());
    draft.settings = { ...draft.settings, triggerConfig: { cron: '0 9 * * *' } };
    expect(diffVersion(version(), draft).workflow).toEqual([]);
    draft.settings = { ...draft.settings, triggerType: 'schedule' };
    expect(diffVersion(version(), draft).workflow).toEqual([
      { key: 'triggerType', label: 'Trigger Type', version: 'Manual', draft: 'Schedule' },
      { key: 'cron', label: 'Cron Expression', version: '', draft: '0 9 * * *' },
    ]);
  });

  it('lists node fields the Properties tab does not show under a readable name', () => {
    const draft = draftOf(version({ nodes: [agentNode('n1', { retryCount: 3 })] }));
    expect(diffVersion(version({ nodes: [agentNode('n1')] }), draft).nodes[0].changes).toEqual([
      { key: 'retryCount', label: 'Retry count', version: '', draft: '3' },
    ]);
  });

  it('summarizes settings and node changes', () => {
    const draft = draftOf(version({ name: 'Renamed', nodes: [agentNode('n1', { label: 'Main writer' })] }));
    expect(summarizeDiff(diffVersion(version({ nodes: [agentNode('n1')] }), draft))).toBe(
      '1 setting changed · 1 node changed',
    );
  });
});

describe('diffVersion with the step kinds', () => {
  const condition = (branches: unknown[]): WorkflowNode => ({
    id: 'route',
    type: 'condition',
    position: { x: 0, y: 0 },
    data: { label: 'Route', branches },
  });
  const billing = { id: 'billing', label: 'Billing', when: 'input.kind == "billing"' };

  it('shows a condition’s branches as lines, label and expression', () => {
    const v = version({ nodes: [condition([billing])] });
    const draft = draftOf(version({ nodes: [condition([{ ...billing, when: 'input.kind == "invoice"' }])] }));
    expect(diffVersion(v, draft).nodes[0]?.changes).toEqual([
      {
        key: 'branches',
        label: 'Branches',
        version: 'Billing: input.kind == "billing"',
        draft: 'Billing: input.kind == "invoice"',
      },
    ]);
  });

  it('shows a code step’s source and limits, and a guardrail’s checks one a line', () => {
    const code = (data: Record<string, unknown>): WorkflowNode => ({
      id: 'total',
      type: 'code',
      position: { x: 0, y: 0 },
      data: { label: 'Total', source: 'return 1', ...data },
    });
    const guard = (checks: unknown[]): WorkflowNode => ({
      id: 'screen',
      type: 'guardrail',
      position: { x: 0, y: 0 },
      data: { label: 'Screen', checks },
    });
    const v = version({ nodes: [code({}), guard([{ type: 'pii', entities: ['email'], action: 'redact' }])] });
    const draft = draftOf(
      version({
        nodes: [
          code({ source: 'return 2', timeoutMs: 500 }),
          guard([
            { type: 'pii', entities: ['email', 'card'], action: 'redact' },
            { type: 'injection', threshold: 0.7, action: 'block', enabled: false },
          ]),
        ],
      }),
    );
    const [total, screen] = diffVersion(v, draft).nodes;
    expect(total?.changes).toEqual([
      { key: 'source', label: 'Code', version: 'return 1', draft: 'return 2' },
      { key: 'timeoutMs', label: 'Time limit (ms)', version: '', draft: '500' },
    ]);
    expect(screen?.changes).toEqual([
      {
        key: 'checks',
        label: 'Checks',
        version: 'PII (email): redact',
        draft: 'PII (email, card): redact\nPrompt injection: block from 0.7 (off)',
      },
    ]);
  });

  it('tells a path moved to another branch as one removed and one added, named by their branches', () => {
    const nodes = [condition([billing]), agentNode('n1')];
    const v = version({
      nodes,
      edges: [{ id: 'e', source: 'route', target: 'n1', sourceHandle: 'billing' }],
    });
    const draft = draftOf(
      version({ nodes, edges: [{ id: 'e', source: 'route', target: 'n1', sourceHandle: 'else' }] }),
    );
    const diff = diffVersion(v, draft);
    expect(diff.edges.map((e) => [e.status, `${e.sourceLabel} → ${e.targetLabel}`])).toEqual([
      ['removed', 'Route · Billing → Writer'],
      ['added', 'Route · Else → Writer'],
    ]);
    expect(isSameAsDraft(diffVersion(v, draftOf(v)))).toBe(true);
  });
});
