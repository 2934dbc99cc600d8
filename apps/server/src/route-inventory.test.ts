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
  // The invitee may have no account yet; the 256-bit token is the credential (modules/organizations/team.*).
  'GET /api/invitations/:token',
  // Stripe proves itself with the Stripe-Signature header (modules/billing, 404 without Stripe).
  'POST /api/stripe/webhook',
];
// The routes that need more than membership, with their minimum role (docs/security.md, Roles);
// team.routes.test.ts walks them with each weaker role. Every other private route: any member.
const roleRoutes = [
  'PUT /api/organizations/:orgId admin',
  'PUT /api/organizations/:orgId/members/:userId admin',
  'POST /api/organizations/:orgId/invitations admin',
  'GET /api/organizations/:orgId/invitations admin',
  'DELETE /api/organizations/:orgId/invitations/:id admin',
  'PUT /api/tools/configurations/:id admin',
  'GET /api/auth/microsoft admin',
  'POST /api/auth/microsoft/disconnect admin',
  'POST /api/create-subscription owner',
  'POST /api/cancel-subscription owner',
  'POST /api/billing/setup-intent owner',
];
// The routes a session whose membership ended still reaches (its other routes answer 404).
const membershipOptionalRoutes = [
  'GET /api/auth/organizations',
  'POST /api/auth/switch-organization',
  'POST /api/auth/logout',
  'POST /api/invitations/:token/accept',
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

  it('declares exactly the expected minimum roles and membership-optional routes', () => {
    const api = t.app.routeInventory.filter((r) => r.url.startsWith('/api') && r.method !== 'HEAD');
    expect(api.filter((r) => r.role).map((r) => `${r.method} ${r.url} ${r.role}`)).toEqual(
      expect.arrayContaining(roleRoutes),
    );
    expect(api.filter((r) => r.role)).toHaveLength(roleRoutes.length);
    expect(
      api
        .filter((r) => r.membershipOptional)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([...membershipOptionalRoutes].sort());
    // A public route has no role to check.
    expect(api.filter((r) => r.public && (r.role || r.membershipOptional))).toEqual([]);
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
