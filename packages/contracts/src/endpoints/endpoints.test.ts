import { describe, expect, it } from 'vitest';
import { endpointKey, endpointList, endpoints, endpointTags, type EndpointSpec } from './index';
import * as paths from './paths';

describe('endpoint descriptors', () => {
  it('name each operation once, under /api, with a summary and a known tag', () => {
    const keys = endpointList.map(endpointKey);
    expect(new Set(keys).size).toBe(keys.length);
    const tags = endpointTags.map((tag) => tag.name as string);
    for (const endpoint of endpointList) {
      const name = endpointKey(endpoint);
      expect({ name, path: endpoint.path.startsWith('/api/') }).toEqual({ name, path: true });
      expect({ name, summary: endpoint.summary.length > 0 }).toEqual({ name, summary: true });
      expect({ name, tag: tags.includes(endpoint.tag) }).toEqual({ name, tag: true });
    }
    // Every tag heads at least one operation.
    expect(tags.filter((tag) => !endpointList.some((e) => e.tag === tag))).toEqual([]);
  });

  it('give each path parameter a params schema that names it', () => {
    for (const endpoint of endpointList) {
      const names = [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]).sort();
      const shape = (endpoint.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      expect({ name: endpointKey(endpoint), params: Object.keys(shape).sort() }).toEqual({
        name: endpointKey(endpoint),
        params: names,
      });
    }
  });

  it('take their paths from paths/, which writes each once and none that no descriptor has', () => {
    expect(Object.keys(paths).sort()).toEqual(Object.keys(endpoints).sort());
    const all: string[] = Object.values(paths).flatMap((area) => Object.values(area));
    expect(new Set(all).size).toBe(all.length);
    for (const [area, areaEndpoints] of Object.entries(endpoints)) {
      const areaPaths: string[] = Object.values(paths[area as keyof typeof paths]);
      const used = Object.values<EndpointSpec>(areaEndpoints).map((endpoint): string => endpoint.path);
      expect({ area, elsewhere: used.filter((path) => !areaPaths.includes(path)) }).toEqual({
        area,
        elsewhere: [],
      });
      expect({ area, unused: areaPaths.filter((path) => !used.includes(path)) }).toEqual({
        area,
        unused: [],
      });
    }
  });

  it('keep the public list short and the keys’ own routes session-only', () => {
    // Health, sign-up and sign-in, links and callbacks that carry their own token, webhooks, and the five
    // routes of a chat app's page.
    expect(endpointList.filter((e) => e.auth === 'public')).toHaveLength(20);
    expect(Object.values(endpoints.apiKeys).every((e) => e.auth === 'session' && e.role === 'admin')).toBe(
      true,
    );
  });
});
