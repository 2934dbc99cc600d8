import { describe, expect, it } from 'vitest';

import { decidingSnapshot, snapshot } from './builder-snapshot.fixture';
import {
  exportDocument,
  exportFileName,
  IMPORT_ERROR_NOT_JSON,
  IMPORT_ERROR_SHAPE,
  parseImport,
} from './workflow-file';

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

describe('export and import of the step kinds', () => {
  it('round-trips conditions, transforms, merges and notes with their data and each path’s branch', () => {
    const doc = exportDocument(decidingSnapshot(), '2026-01-01T00:00:00.000Z');
    expect(doc.edges).toContainEqual({ id: 'e4', source: 'route', target: 'join', sourceHandle: 'else' });
    const result = parseImport(JSON.stringify(doc));
    if (!result.ok) throw new Error(result.error);
    expect(result.input.nodes).toEqual(doc.nodes);
    expect(result.input.edges).toEqual(doc.edges);
    expect(result.input.nodes?.find((n) => n.id === 'route')?.data?.branches).toEqual([
      { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
    ]);
  });

  it('names an imported path without an id by its branch, so two paths to one step stay two', () => {
    const result = parseImport(
      JSON.stringify({
        nodes: [
          { id: 'c', type: 'condition', position: { x: 0, y: 0 }, data: { branches: [] } },
          { id: 'end', type: 'end', position: { x: 1, y: 1 } },
        ],
        edges: [
          { source: 'c', target: 'end', sourceHandle: 'b1' },
          { source: 'c', target: 'end', sourceHandle: 'else' },
        ],
      }),
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.input.edges).toEqual([
      { id: 'e-c-b1-end', source: 'c', target: 'end', sourceHandle: 'b1' },
      { id: 'e-c-else-end', source: 'c', target: 'end', sourceHandle: 'else' },
    ]);
  });
});

describe('export and import of guardrails and code', () => {
  it('keeps a Guardrail step’s checks and paths, a Code step’s source and limits, and an agent’s Blocked path', () => {
    const doc = {
      name: 'Screened',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        {
          id: 'screen',
          type: 'guardrail',
          position: { x: 200, y: 0 },
          data: {
            label: 'Screen',
            target: 'input.message',
            checks: [
              { type: 'pii', enabled: true, entities: ['email', 'card'], action: 'redact' },
              {
                type: 'rule',
                enabled: true,
                label: 'No refunds',
                when: 'text.contains("refund")',
                action: 'block',
              },
            ],
            classifier: { provider: 'openai', model: 'gpt-4o-mini' },
          },
        },
        {
          id: 'total',
          type: 'code',
          position: { x: 400, y: 0 },
          data: {
            label: 'Total',
            language: 'javascript',
            source: 'return 1 + 1;',
            timeoutMs: 500,
            memoryMb: 32,
          },
        },
        { id: 'reply', type: 'agent', agentId: 'a1', position: { x: 600, y: 0 }, data: { label: 'Reply' } },
        { id: 'end', type: 'end', position: { x: 800, y: 0 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'screen' },
        { id: 'e2', source: 'screen', target: 'total', sourceHandle: 'pass' },
        { id: 'e3', source: 'screen', target: 'end', sourceHandle: 'fail' },
        { id: 'e4', source: 'total', target: 'reply' },
        { id: 'e5', source: 'reply', target: 'end' },
        { id: 'e6', source: 'reply', target: 'end', sourceHandle: 'fail' },
      ],
    };
    const result = parseImport(JSON.stringify(doc));
    if (!result.ok) throw new Error(result.error);
    for (const id of ['screen', 'total'])
      expect(result.input.nodes?.find((n) => n.id === id)?.data).toMatchObject(
        doc.nodes.find((n) => n.id === id)!.data,
      );
    expect(result.input.edges).toEqual(doc.edges);
  });
});
