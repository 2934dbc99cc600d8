import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/test-app';

// Every /api route answers 401 without a token, except the public ones named here.
const publicRoutes = [
  'POST /api/auth/signup',
  'POST /api/auth/login',
  'GET /api/health',
  // Callers prove themselves with the workflow's webhook secret instead (modules/triggers).
  'POST /api/webhooks/:workflowId',
  // The browser arrives from Microsoft's sign-in; the single-use state names who started it.
  'GET /api/auth/microsoft/callback',
];
const sampleId = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('route inventory', () => {
  it('declares exactly the expected public routes', () => {
    const declared = t.app.routeInventory
      .filter((r) => r.url.startsWith('/api') && r.public && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(declared.sort()).toEqual([...publicRoutes].sort());
  });

  it('answers 401 without a token on every other API route', async () => {
    const privateRoutes = t.app.routeInventory.filter(
      (r) => r.url.startsWith('/api') && !r.public && r.method !== 'HEAD' && r.method !== 'OPTIONS',
    );
    expect(privateRoutes.length).toBeGreaterThan(5);
    for (const route of privateRoutes) {
      const url = route.url.replace(/:[A-Za-z]+/g, sampleId);
      const res = await t.request({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' ? undefined : {},
      });
      expect({ route: `${route.method} ${route.url}`, status: res.statusCode }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
      });
      expect(res.json().message).toEqual(expect.any(String));
    }
  });
});
