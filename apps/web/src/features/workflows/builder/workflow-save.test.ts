import { describe, expect, it } from 'vitest';

import { decidingSnapshot, snapshot } from './builder-snapshot.fixture';
import { preSaveCheck, validateSnapshot } from './workflow-checks';
import { buildPayload, runAction, saveStatus, saveSuccessTitle } from './workflow-save';

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
    expect(saveStatus('draft', true)).toBe('draft');
  });
  it('sends no status for Save Draft of an existing workflow (behind a gate, active would activate)', () => {
    expect(saveStatus('draft', false)).toBeUndefined();
    expect(buildPayload(snapshot(), saveStatus('draft', false))).not.toHaveProperty('status');
  });
  it('stores active on Activate', () => {
    expect(saveStatus('activate', true)).toBe('active');
    expect(saveStatus('activate', false)).toBe('active');
  });
  it('names the success toast', () => {
    expect(saveSuccessTitle('draft', true)).toBe('Workflow Created');
    expect(saveSuccessTitle('draft', false)).toBe('Workflow Updated');
    expect(saveSuccessTitle('activate', true)).toBe('Workflow Created & Activated');
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

describe('a workflow that decides', () => {
  it('sends each path of a condition with the branch it leaves from, and no handle on the others', () => {
    const payload = buildPayload(decidingSnapshot(), 'draft');
    expect(payload.edges).toEqual([
      { id: 'e1', source: 'start', target: 'classify' },
      { id: 'e2', source: 'classify', target: 'route' },
      { id: 'e3', source: 'route', target: 'priority', sourceHandle: 'billing' },
      { id: 'e4', source: 'route', target: 'join', sourceHandle: 'else' },
      { id: 'e5', source: 'priority', target: 'join' },
      { id: 'e6', source: 'join', target: 'end' },
    ]);
  });

  it('sends each kind’s own fields in the wire format, without the agent fields of the panel', () => {
    const nodes = buildPayload(decidingSnapshot(), 'draft').nodes ?? [];
    const byId = Object.fromEntries(nodes.map((n) => [n.id, n]));
    const at = '2026-01-01T00:00:00.000Z';
    expect(byId.route).toEqual({
      id: 'route',
      type: 'condition',
      position: { x: 600, y: 100 },
      data: {
        label: 'Route',
        description: '',
        lastUpdated: at,
        branches: [{ id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' }],
      },
    });
    expect(byId.priority?.data).toEqual({
      label: 'Transform',
      description: '',
      lastUpdated: at,
      assignments: [{ name: 'priority', value: '"high"' }],
    });
    expect(byId.join?.data).toEqual({ label: 'Join', description: '', lastUpdated: at, mode: 'all' });
    expect(byId.note?.data).toEqual({
      label: 'Note',
      description: '',
      lastUpdated: at,
      text: 'Billing questions go first.',
    });
    expect(byId.classify).toMatchObject({
      agentId: 'a1',
      data: { outputSchema: { type: 'object', required: ['category'] } },
    });
  });

  it('validates it as the server does: fine when sequential, refused kind by kind in a parallel workflow', () => {
    expect(validateSnapshot(decidingSnapshot(), known).errors).toEqual([]);
    expect(validateSnapshot(decidingSnapshot({ processType: 'parallel' }), known).errors).toEqual([
      'Condition "Route" works only in sequential workflows; this one is parallel',
      'Transform "Transform" works only in sequential workflows; this one is parallel',
      'Merge "Join" works only in sequential workflows; this one is parallel',
    ]);
  });

  it('blocks a save while a condition has no else path, naming it', () => {
    const s = decidingSnapshot();
    s.edges = s.edges.filter((e) => e.sourceHandle !== 'else');
    expect(preSaveCheck(s, known)?.description).toContain('Condition "Route" needs an else path');
  });
});
