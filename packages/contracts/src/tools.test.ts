import { describe, expect, it } from 'vitest';

import { linkConfigIssues, linkConfigMessages, movesToolDestination, usableLinkConfig } from './tools';

describe('an agent-tool link’s config', () => {
  it('takes parameters, not credentials (at any depth) nor destinations and headers (top level)', () => {
    expect(
      linkConfigIssues({ units: 'metric', maxTokens: 500, isEnabled: true, filter: { url: 'x' } }),
    ).toEqual([]);
    expect(
      linkConfigIssues({
        apiKey: 'k',
        'X-Api-Key': 'k',
        params: { access_token: 't' },
        base_url: 'u',
        headers: {},
      }),
    ).toEqual([
      { path: ['apiKey'], message: linkConfigMessages.credential('apiKey') },
      { path: ['X-Api-Key'], message: linkConfigMessages.credential('X-Api-Key') },
      { path: ['params', 'access_token'], message: linkConfigMessages.credential('params.access_token') },
      { path: ['base_url'], message: linkConfigMessages.destination('base_url') },
      { path: ['headers'], message: linkConfigMessages.destination('headers') },
    ]);
  });

  it('keeps only what it may hold from a link stored before the rule', () => {
    expect(
      usableLinkConfig({
        units: 'metric',
        baseUrl: 'http://elsewhere',
        authHeader: 'X-Leak',
        password: 'p',
        list: [{ token: 't', keep: 1 }],
      }),
    ).toEqual({ units: 'metric', list: [{ keep: 1 }] });
  });
});

describe('movesToolDestination', () => {
  const tool = { category: 'api' as const, config: { baseUrl: 'https://a.example.com', schema: 'public' } };

  it('is true for another destination value or another category', () => {
    expect(movesToolDestination(tool, { config: { baseUrl: 'https://b.example.com' } })).toBe(true);
    expect(movesToolDestination(tool, { config: {} })).toBe(true);
    expect(
      movesToolDestination(tool, { config: { baseUrl: 'https://a.example.com', url: 'https://b' } }),
    ).toBe(true);
    expect(movesToolDestination(tool, { category: 'custom' })).toBe(true);
  });

  it('is false when the destination stays (spaces aside) or the config is not sent', () => {
    expect(movesToolDestination(tool, { config: { baseUrl: ' https://a.example.com ', apiKey: 'k' } })).toBe(
      false,
    );
    expect(movesToolDestination(tool, { category: 'api' })).toBe(false);
    expect(movesToolDestination(tool, {})).toBe(false);
  });
});
