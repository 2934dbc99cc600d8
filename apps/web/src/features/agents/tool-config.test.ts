import { describe, expect, it } from 'vitest';

import {
  availableTools,
  configPreview,
  parseToolConfig,
  toggleToolBody,
  toolCategoryLabel,
} from './tool-config';
import type { AgentToolLink, Tool } from './types';

describe('parseToolConfig', () => {
  it('accepts a text only when it parses to a JSON object', () => {
    expect(parseToolConfig('{"maxResults": 5}')).toEqual({ ok: true, value: { maxResults: 5 } });
    expect(parseToolConfig('  ')).toEqual({ ok: true, value: {} });
    expect(parseToolConfig('{"maxResults": ')).toEqual({ ok: false });
    expect(parseToolConfig('[1, 2]')).toEqual({ ok: false });
    expect(parseToolConfig('42')).toEqual({ ok: false });
    expect(parseToolConfig('null')).toEqual({ ok: false });
  });
});

const tool = (id: string, name = id): Tool => ({
  id,
  name,
  description: null,
  category: 'web',
  provider: null,
  config: {},
  isActive: true,
});

const link = (toolId: string, config: Record<string, unknown> | null = {}): AgentToolLink => ({
  id: `l-${toolId}`,
  agentId: 'a1',
  toolId,
  tool: { name: toolId, description: null, category: 'web' },
  isEnabled: true,
  config,
  approval: 'writes',
  createdAt: '2026-01-01T00:00:00Z',
});

describe('availableTools', () => {
  it('offers only tools not connected yet', () => {
    expect(availableTools([tool('t1'), tool('t2'), tool('t3')], [link('t2')]).map((t) => t.id)).toEqual([
      't1',
      't3',
    ]);
    expect(availableTools([tool('t1')], [link('t1')])).toEqual([]);
  });
});

describe('configPreview', () => {
  it('pretty-prints the configuration without isEnabled, or null when empty', () => {
    expect(configPreview({ maxResults: 5, isEnabled: true })).toBe('{\n  "maxResults": 5\n}');
    expect(configPreview({ isEnabled: false })).toBeNull();
    expect(configPreview(null)).toBeNull();
    expect(configPreview({})).toBeNull();
  });

  it('cuts long configurations', () => {
    const preview = configPreview({ prompt: 'p'.repeat(500) }, 50);
    expect(preview).toHaveLength(51);
    expect(preview?.endsWith('…')).toBe(true);
  });
});

describe('toggleToolBody', () => {
  it('puts isEnabled into the config and beside it', () => {
    expect(toggleToolBody(link('t1', { maxResults: 5 }), false)).toEqual({
      config: { maxResults: 5, isEnabled: false },
      isEnabled: false,
    });
    expect(toggleToolBody(link('t1', null), true)).toEqual({ config: { isEnabled: true }, isEnabled: true });
  });
});

describe('toolCategoryLabel', () => {
  it('labels categories by their display names', () => {
    expect(toolCategoryLabel('vector_store')).toBe('Vector Store');
    expect(toolCategoryLabel('ai')).toBe('AI Services');
    expect(toolCategoryLabel('other')).toBe('Other');
  });
});
