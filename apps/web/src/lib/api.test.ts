import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { apiRequest, getErrorMessage, getQueryFn, parseApiError } from './api';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}

function respond(status: number, body: string | null, statusText = '') {
  return new Response(body, { status, statusText });
}

let fetchMock: ReturnType<typeof vi.fn>;

function lastCall(): { url: string; init: RequestInit & { headers: Record<string, string> } } {
  const [url, init] = fetchMock.mock.calls.at(-1) as [
    string,
    RequestInit & { headers: Record<string, string> },
  ];
  return { url, init };
}

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends the stored token as a Bearer header and always includes credentials', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ authToken: 'tok-123' }));
    fetchMock.mockImplementation(async () => respond(200, '{"ok":true}'));

    await expect(apiRequest('GET', '/api/agents')).resolves.toEqual({ ok: true });

    const { url, init } = lastCall();
    expect(url).toBe('/api/agents');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('include');
    expect(init.headers.Authorization).toBe('Bearer tok-123');
  });

  it('sends no Authorization header without a stored token', async () => {
    fetchMock.mockImplementation(async () => respond(200, '[]'));
    await apiRequest('GET', '/api/workflows');
    const { init } = lastCall();
    expect(init.headers).not.toHaveProperty('Authorization');
    expect(init.credentials).toBe('include');
  });

  it('sends a JSON content type only when there is a body', async () => {
    fetchMock.mockImplementation(async () => respond(200, '{}'));

    await apiRequest('POST', '/api/auth/login', { email: 'a@b.co', password: 'secret1' });
    let { init } = lastCall();
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'secret1' }));

    await apiRequest('POST', '/api/auth/logout');
    ({ init } = lastCall());
    expect(init.headers).not.toHaveProperty('Content-Type');
    expect(init.body).toBeUndefined();
  });

  it('throws "<status>: <body>" for a non-OK answer', async () => {
    fetchMock.mockImplementation(async () =>
      respond(401, '{"message":"Invalid email or password"}', 'Unauthorized'),
    );
    const error = await apiRequest('POST', '/api/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('401: {"message":"Invalid email or password"}');
    expect(getErrorMessage(error, 'Failed to login')).toBe('Invalid email or password');
  });

  it('falls back to the status text when the error body is empty', async () => {
    fetchMock.mockImplementation(async () => respond(503, null, 'Service Unavailable'));
    await expect(apiRequest('GET', '/api/health')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('yields null for 204 and for an empty body', async () => {
    fetchMock.mockResolvedValueOnce(respond(204, null));
    await expect(apiRequest('POST', '/api/auth/logout')).resolves.toBeNull();
    fetchMock.mockResolvedValueOnce(respond(200, ''));
    await expect(apiRequest('GET', '/api/empty')).resolves.toBeNull();
  });
});

describe('getQueryFn', () => {
  const context = (queryKey: readonly unknown[]) =>
    ({ queryKey, signal: new AbortController().signal, meta: undefined }) as never;

  it('GETs the query key parts joined with "/" with the same header rules', async () => {
    vi.stubGlobal('localStorage', memoryStorage({ authToken: 'tok-9' }));
    fetchMock.mockImplementation(async () => respond(200, '{"totalAgents":3}'));

    const data = await getQueryFn({ on401: 'throw' })(context(['/api/organizations', 'org-1', 'stats']));

    expect(data).toEqual({ totalAgents: 3 });
    const { url, init } = lastCall();
    expect(url).toBe('/api/organizations/org-1/stats');
    expect(init.credentials).toBe('include');
    expect(init.headers.Authorization).toBe('Bearer tok-9');
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('throws on 401 by default and yields null when configured', async () => {
    fetchMock.mockImplementation(async () => respond(401, '{"message":"Not signed in"}'));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/me']))).rejects.toThrow(/^401: /);
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/me']))).resolves.toBeNull();
  });
});

describe('parseApiError', () => {
  it('reads status, message and field errors', () => {
    const parsed = parseApiError(
      new Error(
        '400: {"message":"Invalid input","errors":[{"path":"email","message":"Invalid email address"}]}',
      ),
    );
    expect(parsed).toEqual({
      status: 400,
      message: 'Invalid input',
      errors: [{ path: 'email', message: 'Invalid email address' }],
    });
  });

  it('uses a plain-text body as the message but never an HTML page', () => {
    expect(parseApiError(new Error('502: Bad Gateway')).message).toBe('Bad Gateway');
    expect(getErrorMessage(new Error('500: <html><body>oops</body></html>'), 'Failed to login')).toBe(
      'Failed to login',
    );
    expect(getErrorMessage(new TypeError('Failed to fetch'), 'Failed to create account')).toBe(
      'Failed to create account',
    );
  });
});
