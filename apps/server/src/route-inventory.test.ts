import { endpointKey, endpointList } from '@crewline/contracts/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from './platform/openapi';
import { createTestApp, type TestApp } from './testing/test-app';

// Every /api route answers 401 without a token, except the public ones named here.
const publicRoutes = [
  'POST /api/auth/signup',
  'POST /api/auth/login',
  // The emailed single-use token is the credential (modules/auth/account-links.*).
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/verify-email',
  'GET /api/health',
  // Callers prove themselves with the workflow's webhook secret instead (modules/triggers).
  'POST /api/webhooks/:workflowId',
  // The browser arrives from Microsoft's sign-in; the single-use state names who started it.
  'GET /api/auth/microsoft/callback',
  // The same for an OAuth MCP server's sign-in (modules/tools/mcp-oauth.*).
  'GET /api/mcp-oauth/callback',
  // The invitee may have no account yet; the 256-bit token is the credential (modules/organizations/team.*).
  'GET /api/invitations/:token',
  // Stripe proves itself with the Stripe-Signature header (modules/billing, 404 without Stripe).
  'POST /api/stripe/webhook',
  // The shipped template library's summary, for the signed-out landing page.
  'GET /api/templates/library',
  // The OpenAPI document of these routes (platform/openapi.ts): the API reference reads it signed out.
  'GET /api/openapi.json',
  // An emailed approval link binds its one approver and decision; the 256-bit token is the credential
  // (modules/executions/approval-links.*, docs/security.md).
  'GET /api/approval-links/:token',
  'POST /api/approval-links/:token',
  // Talk to Sales on the landing page (modules/sales): counted per client address.
  'POST /api/sales-inquiries',
  // Chat apps (modules/chat): the chat service decides who may use an app (a member's session, the
  // signed visitor cookie, the password), and a thread is only ever its visitor's.
  'GET /api/chat/:slug',
  'POST /api/chat/:slug/unlock',
  'POST /api/chat/:slug/threads',
  'GET /api/chat/:slug/threads/:threadId',
  'POST /api/chat/:slug/threads/:threadId/messages',
];
// The routes that need more than membership, with their minimum role (docs/security.md, Tenancy and roles);
// team.routes.test.ts walks them with each weaker role. Every other private route: any member.
const roleRoutes = [
  'PUT /api/organizations/:orgId admin',
  'PUT /api/organizations/:orgId/members/:userId admin',
  'POST /api/organizations/:orgId/invitations admin',
  'GET /api/organizations/:orgId/invitations admin',
  'DELETE /api/organizations/:orgId/invitations/:id admin',
  'POST /api/organizations/:orgId/invitations/:id/verification-link admin',
  'PUT /api/organization/settings admin',
  'PUT /api/prices admin',
  'PUT /api/organization/budget admin',
  'DELETE /api/prices/:provider/:model admin',
  'PUT /api/tools/configurations/:id admin',
  'GET /api/auth/microsoft admin',
  'POST /api/auth/microsoft/disconnect admin',
  'POST /api/create-subscription owner',
  'POST /api/cancel-subscription owner',
  'POST /api/billing/setup-intent owner',
  'GET /api/billing/invoices admin',
  'GET /api/organizations/:orgId/api-keys admin',
  'POST /api/organizations/:orgId/api-keys admin',
  'DELETE /api/organizations/:orgId/api-keys/:id admin',
  'PUT /api/workflows/:id/publishing admin',
  'GET /api/tools/:id/mcp-authorize admin',
  'DELETE /api/workflows/:id/chat-threads/:threadId admin',
  'GET /api/audit owner',
  'GET /api/audit.csv owner',
];
// The member routes an organization API key may not call (docs/security.md, API keys): the signed-in
// user's own account, the team, connections and the keys. A key also never passes a role above member,
// nor a membership-optional route.
const sessionOnlyRoutes = [
  'GET /api/auth/me',
  'PUT /api/auth/me',
  'POST /api/auth/change-password',
  'POST /api/auth/resend-verification',
  'GET /api/organizations/:orgId',
  'GET /api/organizations/:orgId/members',
  'DELETE /api/organizations/:orgId/members/:userId',
  'GET /api/tools/configurations',
  'GET /api/auth/microsoft/status',
  'GET /api/organizations/:orgId/api-keys',
  'POST /api/organizations/:orgId/api-keys',
  'DELETE /api/organizations/:orgId/api-keys/:id',
  'GET /api/system/sales-inquiries',
  // The consent page and Settings → Connected apps (modules/oauth): a member's own decision.
  'GET /api/oauth/consent',
  'POST /api/oauth/consent',
  'GET /api/oauth/grants',
  'DELETE /api/oauth/grants/:id',
];
// The routes a session whose membership ended still reaches (its other routes answer 404).
const membershipOptionalRoutes = [
  'GET /api/auth/organizations',
  'POST /api/auth/switch-organization',
  'POST /api/auth/logout',
  'POST /api/auth/resend-verification',
  'POST /api/invitations/:token/accept',
];
const sampleId = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('route inventory', () => {
  it('registers every endpoint descriptor, and no /api route without one', () => {
    const registered = t.app.routeInventory.filter(
      (r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && r.url !== OPENAPI_PATH,
    );
    expect(registered.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      endpointList.map(endpointKey).sort(),
    );
    expect(new Set(endpointList.map(endpointKey)).size).toBe(endpointList.length);
    // Each route carries the auth config its descriptor says (the guards read the config).
    for (const endpoint of endpointList) {
      const name = endpointKey(endpoint);
      const entry = registered.find((r) => `${r.method} ${r.url}` === name)!;
      expect({ name, public: entry.public, sessionOnly: entry.sessionOnly }).toEqual({
        name,
        public: endpoint.auth === 'public',
        sessionOnly: endpoint.auth === 'session',
      });
      expect({ name, role: entry.role, membershipOptional: entry.membershipOptional }).toEqual({
        name,
        role: endpoint.role,
        membershipOptional: endpoint.membershipOptional === true,
      });
    }
  });

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

  it('lets an API key call every member route but the session-only ones', async () => {
    const api = t.app.routeInventory.filter(
      (r) => r.url.startsWith('/api') && !r.public && r.method !== 'HEAD' && r.method !== 'OPTIONS',
    );
    expect(
      api
        .filter((r) => r.sessionOnly)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([...sessionOnlyRoutes].sort());

    const who = await t.signup();
    const created = await t.request({
      method: 'POST',
      url: `/api/organizations/${who.organization.id}/api-keys`,
      token: who.token,
      payload: { name: 'inventory' },
    });
    const key = created.json().key as string;
    for (const route of api) {
      const url = route.url.replace(/:orgId/g, who.organization.id).replace(/:[A-Za-z]+/g, sampleId);
      const res = await t.request({
        method: route.method as 'GET',
        url,
        token: key,
        payload: route.method === 'GET' ? undefined : {},
      });
      const name = `${route.method} ${route.url}`;
      const refused = route.sessionOnly || route.membershipOptional || route.role !== undefined;
      // Refused routes answer 403 before anything else; the others get past authentication.
      expect({
        name,
        status: refused ? res.statusCode : res.statusCode === 401 || res.statusCode === 403,
      }).toEqual({
        name,
        status: refused ? 403 : false,
      });
    }
  });

  it('registers GET /metrics outside /api, where no session or key reaches it (platform/metrics)', async () => {
    // Prometheus's scrape: its own bearer token (METRICS_TOKEN) or port, never the API's guards.
    const metrics = t.app.routeInventory.filter((r) => r.url === '/metrics' && r.method !== 'HEAD');
    expect(metrics.map((r) => ({ method: r.method, public: r.public, role: r.role }))).toEqual([
      { method: 'GET', public: false, role: undefined },
    ]);
    // This app configures no METRICS_TOKEN: not served, whoever asks.
    const who = await t.signup();
    expect((await t.request({ method: 'GET', url: '/metrics', token: who.token })).statusCode).toBe(404);
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
