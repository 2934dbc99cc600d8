import { describe, expect, it } from 'vitest';

import type { BuilderSnapshot } from './workflow-logic';
import {
  buildPayload,
  createAgentNode,
  DEFAULT_SETTINGS,
  defaultNodes,
  exportDocument,
  exportFileName,
  formatEstimate,
  freePosition,
  IMPORT_ERROR_NOT_JSON,
  IMPORT_ERROR_SHAPE,
  parseImport,
  preSaveCheck,
  runAction,
  saveStatus,
  saveSuccessTitle,
} from './workflow-logic';

const agentNode = createAgentNode(
  { id: 'a1', name: 'Writer', role: 'Writes', llmModel: 'gpt-4o' },
  { x: 315, y: 240 },
  { id: 'n1', color: '#6366f1', now: '2026-01-01T00:00:00.000Z' },
);

function snapshot(overrides: Partial<BuilderSnapshot['settings']> = {}): BuilderSnapshot {
  return {
    settings: { ...DEFAULT_SETTINGS, name: 'Daily digest', ...overrides },
    nodes: [...defaultNodes('2026-01-01T00:00:00.000Z'), agentNode],
    edges: [
      { id: 'e1', source: 'start', target: 'n1', animated: true, selected: true },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
  };
}

const known = (id: string) => id === 'a1';

describe('runAction', () => {
  it('runs an active workflow at once', () => {
    expect(runAction('active')).toBe('run');
  });
  it('offers Activate and run for a draft, a paused or a new workflow', () => {
    expect(runAction('draft')).toBe('activate-and-run');
    expect(runAction('paused')).toBe('activate-and-run');
    expect(runAction(null)).toBe('activate-and-run');
  });
});

describe('saveStatus', () => {
  it('stores draft for a new workflow saved as draft', () => {
    expect(saveStatus('draft', null)).toBe('draft');
  });
  it('keeps the existing status when editing', () => {
    expect(saveStatus('draft', 'active')).toBe('active');
    expect(saveStatus('draft', 'paused')).toBe('paused');
  });
  it('stores active on Activate', () => {
    expect(saveStatus('activate', null)).toBe('active');
    expect(saveStatus('activate', 'draft')).toBe('active');
  });
  it('names the success toast', () => {
    expect(saveSuccessTitle('draft', true)).toBe('Workflow Created');
    expect(saveSuccessTitle('draft', false)).toBe('Workflow Updated');
    expect(saveSuccessTitle('activate', true)).toBe('Workflow Created & Activated');
    expect(saveStatus('activate', 'active')).toBe('active');
    expect(saveSuccessTitle('activate', false)).toBe('Workflow Activated');
  });
});

describe('buildPayload', () => {
  it('preserves positions, keeps node data and strips canvas-only edge fields', () => {
    const payload = buildPayload(snapshot({ description: '  ' }), 'draft');
    expect(payload.name).toBe('Daily digest');
    expect(payload.description).toBeNull();
    expect(payload.status).toBe('draft');
    expect(payload.nodes?.map((n) => [n.id, n.type, n.position])).toEqual([
      ['start', 'start', { x: 100, y: 100 }],
      ['end', 'end', { x: 500, y: 100 }],
      ['n1', 'agent', { x: 315, y: 240 }],
    ]);
    expect(payload.nodes?.[2]).toMatchObject({
      agentId: 'a1',
      data: { name: 'Writer', outputFormat: 'text' },
    });
    expect(payload.edges).toEqual([
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ]);
  });

  it('sends only the filled fields of the chosen trigger', () => {
    const payload = buildPayload(
      snapshot({ triggerType: 'email', triggerConfig: { cron: '0 9 * * 1', emailAddress: ' a@b.co ' } }),
      'draft',
    );
    expect(payload.triggerConfig).toEqual({ emailAddress: 'a@b.co' });
  });

  it('sends only the filled trigger fields', () => {
    const payload = buildPayload(
      snapshot({ triggerType: 'schedule', triggerConfig: { cron: ' 0 9 * * 1 ', secret: '' } }),
      'active',
    );
    expect(payload.triggerConfig).toEqual({ cron: '0 9 * * 1' });
  });

  it('sends a webhook’s “Require signed calls” only when it is on, and only for a webhook', () => {
    const webhook = (signed: boolean) =>
      buildPayload(snapshot({ triggerType: 'webhook', triggerConfig: { signed } }), 'draft').triggerConfig;
    expect(webhook(true)).toEqual({ signed: true });
    expect(webhook(false)).toEqual({});
    const manual = buildPayload(
      snapshot({ triggerType: 'manual', triggerConfig: { signed: true } }),
      'draft',
    );
    expect(manual.triggerConfig).toEqual({});
  });
});

describe('preSaveCheck', () => {
  it('passes a valid workflow', () => {
    expect(preSaveCheck(snapshot(), known)).toBeNull();
  });
  it('requires a name', () => {
    expect(preSaveCheck(snapshot({ name: ' ' }), known)).toEqual({
      title: 'Validation Error',
      description: 'Please enter a workflow name',
    });
  });
  it('requires a valid cron for schedule triggers', () => {
    expect(
      preSaveCheck(snapshot({ triggerType: 'schedule', triggerConfig: { cron: 'nope' } }), known),
    ).toEqual({
      title: 'Validation Error',
      description: 'Please enter a valid cron expression for scheduled workflows',
    });
    expect(
      preSaveCheck(snapshot({ triggerType: 'schedule', triggerConfig: { cron: '0 9 * * *' } }), known),
    ).toBeNull();
  });
  it('requires an email address for email triggers', () => {
    expect(preSaveCheck(snapshot({ triggerType: 'email', triggerConfig: {} }), known)).toEqual({
      title: 'Trigger Configuration Error',
      description: 'Please enter an email address for email-triggered workflows',
    });
  });
  it('joins structural errors with commas', () => {
    const s = snapshot();
    s.nodes = s.nodes.filter((n) => n.type === 'agent');
    expect(preSaveCheck(s, () => false)).toEqual({
      title: 'Validation Failed',
      description:
        'Workflow must have a start node, Workflow must have an end node, Step "Writer" uses an agent that was deleted. Open the workflow and choose another agent.',
    });
  });
});

describe('export and import', () => {
  it('names the file after the workflow', () => {
    expect(exportFileName('Daily digest')).toBe('Daily digest.json');
    expect(exportFileName('a/b:c')).toBe('a-b-c.json');
    expect(exportFileName('  ')).toBe('workflow.json');
  });

  it('round-trips an export into a new draft workflow', () => {
    const doc = exportDocument(snapshot({ processType: 'parallel' }), '2026-01-01T00:00:00.000Z');
    const result = parseImport(JSON.stringify(doc));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input).toMatchObject({ name: 'Daily digest', processType: 'parallel', status: 'draft' });
    expect(result.input.nodes?.map((n) => n.position)).toEqual([
      { x: 100, y: 100 },
      { x: 500, y: 100 },
      { x: 315, y: 240 },
    ]);
    expect(result.input.edges).toHaveLength(2);
  });

  it('rejects files that are not JSON', () => {
    expect(parseImport('{nope')).toEqual({ ok: false, error: IMPORT_ERROR_NOT_JSON });
  });

  it('rejects files without nodes or edges', () => {
    expect(parseImport(JSON.stringify({ name: 'x', nodes: [] }))).toEqual({
      ok: false,
      error: IMPORT_ERROR_SHAPE,
    });
    expect(parseImport(JSON.stringify({ name: 'x', edges: [] }))).toEqual({
      ok: false,
      error: IMPORT_ERROR_SHAPE,
    });
    expect(parseImport(JSON.stringify([1, 2]))).toEqual({ ok: false, error: IMPORT_ERROR_SHAPE });
    expect(parseImport(JSON.stringify({ nodes: [{ id: 'a' }], edges: [] }))).toEqual({
      ok: false,
      error: IMPORT_ERROR_SHAPE,
    });
  });

  it('fills defaults and drops edges to missing nodes', () => {
    const result = parseImport(
      JSON.stringify({
        nodes: [{ id: 's', type: 'start', position: { x: 0, y: 0 } }],
        edges: [{ source: 's', target: 'ghost' }],
      }),
    );
    expect(result).toMatchObject({ ok: true, input: { name: 'Imported workflow', edges: [] } });
  });
});

describe('formatEstimate', () => {
  it('shows whole minutes', () => {
    expect(formatEstimate(2)).toBe('~2 min');
  });
});

describe('freePosition', () => {
  const overlap = (a: { x: number; y: number }, b: { x: number; y: number }) =>
    Math.abs(a.x - b.x) < 240 && Math.abs(a.y - b.y) < 100;

  it('places twenty agents one after another with no two overlapping, nor on Start or End', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const nodes = [...defaultNodes('2026-01-01T00:00:00.000Z')];
    for (let n = 0; n < 20; n++) {
      const position = freePosition(nodes, random);
      for (const other of nodes) {
        const size = other.type === 'agent' ? { w: 240, h: 100 } : { w: 140, h: 56 };
        const apart =
          position.x + 240 <= other.position.x ||
          other.position.x + size.w <= position.x ||
          position.y + 100 <= other.position.y ||
          other.position.y + size.h <= position.y;
        expect(apart).toBe(true);
      }
      nodes.push(
        createAgentNode({ id: `a${n}`, name: `A${n}`, role: 'r' }, position, { id: `n${n}`, color: '#000' }),
      );
    }
    const agents = nodes.filter((node) => node.type === 'agent');
    for (const a of agents)
      for (const b of agents) if (a !== b) expect(overlap(a.position, b.position)).toBe(false);
  });

  it('uses measured sizes, and finds a spot below them all when chance keeps landing on a node', () => {
    const wide = {
      type: 'agent' as const,
      position: { x: 0, y: 0 },
      measured: { width: 5000, height: 3000 },
    };
    expect(freePosition([wide], () => 0.5)).toEqual({ x: 150, y: 3024 });
  });
});
