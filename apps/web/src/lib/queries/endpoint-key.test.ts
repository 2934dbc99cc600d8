import { endpointList } from '@crewline/contracts/endpoints';
import { describe, expect, it } from 'vitest';

import { endpointKey, keyHead } from './endpoint-key';
import { queryKeys } from './keys';

describe('endpointKey', () => {
  it("splits a descriptor's path at its first parameter and fills the parameters in, unencoded", () => {
    expect(endpointKey('/api/agents')).toEqual(['/api/agents']);
    // @ts-expect-error a path with parameters needs their values
    expect(endpointKey('/api/agents/:id')).toEqual(['/api/agents', undefined]);
    // @ts-expect-error only a GET endpoint's path makes a key
    expect(endpointKey('/api/agents/:id/test', { id: 'a1' })).toEqual(['/api/agents', 'a1', 'test']);
    expect(endpointKey('/api/auth/me', {})).toEqual(['/api/auth/me']);
    expect(endpointKey('/api/agents/:agentId/tools', { agentId: 'a/1' })).toEqual([
      '/api/agents',
      'a/1',
      'tools',
    ]);
    expect(endpointKey('/api/workflows/:id/versions/:version', { id: 'w1', version: 3 })).toEqual([
      '/api/workflows',
      'w1',
      'versions',
      3,
    ]);
  });

  it('puts the query last, and nests a path under a shorter head when asked', () => {
    expect(endpointKey('/api/templates', {}, { sort: 'popular' })).toEqual([
      '/api/templates',
      { sort: 'popular' },
    ]);
    expect(endpointKey('/api/templates/library', {}, undefined, '/api/templates')).toEqual([
      '/api/templates',
      'library',
    ]);
    expect(keyHead('/api/organizations/:orgId/stats')).toBe('/api/organizations');
  });
});

describe('queryKeys', () => {
  it('are the keys they always were, so invalidation and cache patching target the same queries', () => {
    expect(queryKeys.session).toEqual(['/api/auth/me']);
    expect(queryKeys.connections).toEqual(['/api/tools/configurations']);
    expect(queryKeys.agents.tools('a1')).toEqual(['/api/agents', 'a1', 'tools']);
    expect(queryKeys.agents.memorySearch('a1', '  ')).toEqual([
      '/api/agents',
      'a1',
      'memories',
      { search: undefined },
    ]);
    expect(queryKeys.workflows.version('w1', 2)).toEqual(['/api/workflows', 'w1', 'versions', 2]);
    expect(queryKeys.executions.list({ status: 'failed' })).toEqual([
      '/api/executions',
      { status: 'failed' },
    ]);
    expect(queryKeys.executions.pages({})).toEqual(['/api/executions', {}, 'pages']);
    expect(queryKeys.templates.library).toEqual(['/api/templates', 'library']);
    expect(queryKeys.organizations.all).toEqual(['/api/organizations']);
    expect(queryKeys.organizations.analytics('o1', { days: '7', tz: 'UTC' })).toEqual([
      '/api/organizations',
      'o1',
      'analytics',
      { days: '7', tz: 'UTC' },
    ]);
  });

  it('each stand for a GET endpoint the API declares', () => {
    const gets = endpointList
      .filter((endpoint) => endpoint.method === 'GET')
      .map((endpoint) => endpoint.path.replace(/:[A-Za-z]+/g, ':'));
    const keys = [
      queryKeys.session,
      queryKeys.systemStatus,
      queryKeys.providers,
      queryKeys.tools,
      queryKeys.toolUsage('x'),
      queryKeys.connections,
      queryKeys.microsoftStatus,
      queryKeys.userOrganizations,
      queryKeys.subscription,
      queryKeys.billingConfig,
      queryKeys.billingInvoices,
      queryKeys.agents.detail('x'),
      queryKeys.agents.knowledgeBases('x'),
      queryKeys.agents.usage('x'),
      queryKeys.agents.memories('x'),
      queryKeys.workflows.all,
      queryKeys.workflows.versions('x'),
      queryKeys.workflows.version('x', 1),
      queryKeys.workflows.webhookSecret('x'),
      queryKeys.knowledgeBases.detail('x'),
      queryKeys.knowledgeBases.documents('x'),
      queryKeys.knowledgeBases.usage('x'),
      queryKeys.executions.detail('x'),
      queryKeys.templates.library,
      queryKeys.invitations.preview('x'),
      queryKeys.organizations.of('x'),
      queryKeys.organizations.apiKeys('x'),
    ];
    for (const key of keys) {
      const path = key
        .filter((part) => typeof part === 'string' || typeof part === 'number')
        .map((part) => (part === 'x' || part === 1 ? ':' : part))
        .join('/');
      expect(gets).toContain(path);
    }
  });
});
