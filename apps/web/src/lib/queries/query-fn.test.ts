import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createQueryClient } from '../query-client';
import { queryKeys } from './keys';

let fetchMock: ReturnType<typeof vi.fn>;

function requestedUrls(): string[] {
  return fetchMock.mock.calls.map(([url]) => url as string);
}

beforeEach(() => {
  fetchMock = vi.fn(async () => new Response('[]', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the app's default query function", () => {
  it('GETs the path of a key, and its object part as the query string', async () => {
    const client = createQueryClient();
    await client.fetchQuery({ queryKey: queryKeys.executions.detail('e1') });
    await client.fetchQuery({ queryKey: queryKeys.executions.list({ workflowId: 'w1', limit: 1 }) });
    await client.fetchQuery({
      queryKey: queryKeys.organizations.analytics('org-1', { days: '7', tz: 'Europe/Paris' }),
    });
    await client.fetchQuery({ queryKey: queryKeys.executions.list({ workflowId: 'w2', status: undefined }) });

    expect(requestedUrls()).toEqual([
      '/api/executions/e1',
      '/api/executions?workflowId=w1&limit=1',
      '/api/organizations/org-1/analytics?days=7&tz=Europe%2FParis',
      '/api/executions?workflowId=w2',
    ]);
  });

  it('throws the API error of a refused read, which re-checks the session on a 401', async () => {
    const client = createQueryClient();
    client.setQueryData(queryKeys.session, { user: null });
    fetchMock.mockImplementation(async () => new Response('{"message":"Not signed in"}', { status: 401 }));

    await expect(client.fetchQuery({ queryKey: queryKeys.workflows.all })).rejects.toThrow(/^401: /);
    expect(client.getQueryState(queryKeys.session)?.isInvalidated).toBe(true);
  });
});
