import { endpoints } from '@crewline/contracts/endpoints';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { api, endpointUrl } from './api-call';

let fetchMock: ReturnType<typeof vi.fn>;

function lastCall(): { url: string; init: RequestInit & { headers: Record<string, string> } } {
  const [url, init] = fetchMock.mock.calls.at(-1) as [
    string,
    RequestInit & { headers: Record<string, string> },
  ];
  return { url, init };
}

const respond = (status: number, body: string | null) => new Response(body, { status });

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', { getItem: () => null });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api.call', () => {
  it("sends the descriptor's method to its path with the parameters filled in, and the body as JSON", async () => {
    fetchMock.mockImplementation(async () => respond(201, '{"id":"k1","key":"crw_x"}'));
    await expect(
      api.call(endpoints.apiKeys.create, { params: { orgId: 'o1' }, body: { name: 'CI' } }),
    ).resolves.toEqual({ id: 'k1', key: 'crw_x' });
    const { url, init } = lastCall();
    expect(url).toBe('/api/organizations/o1/api-keys');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"CI"}');
    expect(init.headers['Content-Type']).toBe('application/json');
  });

  it('sends no body when the endpoint takes none, and yields null for a 204', async () => {
    fetchMock.mockImplementation(async () => respond(204, null));
    await expect(
      api.call(endpoints.organizations.removeMember, { params: { orgId: 'o1', userId: 'u 2' } }),
    ).resolves.toBeNull();
    const { url, init } = lastCall();
    expect(url).toBe('/api/organizations/o1/members/u%202');
    expect(init.method).toBe('DELETE');
    expect(init.body).toBeUndefined();
    expect(init.headers['Content-Type']).toBeUndefined();
  });
});

describe('endpointUrl', () => {
  it('fills each path parameter, encoded, and adds the defined query values', () => {
    expect(
      endpointUrl('/api/agents/:id/memories', { id: 'a/1' }, { search: 'tea time', page: undefined }),
    ).toBe('/api/agents/a%2F1/memories?search=tea+time');
    expect(endpointUrl('/api/agents')).toBe('/api/agents');
  });

  it('refuses a missing path parameter instead of calling a wrong URL', () => {
    expect(() => endpointUrl('/api/agents/:id', {})).toThrow('Missing id for /api/agents/:id');
  });
});
