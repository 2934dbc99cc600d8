import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { realtimeMessages, roleRequired, teamMessages, type AuthResponse } from '@crewline/contracts';
import { organizationInvitations, workflowExecutions } from '@crewline/db';
import { connectRealtime, type RealtimeClient } from '../../testing/realtime-client';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { joinOrganization } from '../../testing/app-fixtures';
import { chainOf } from '../../testing/workflow-shapes';
import { hashLinkToken } from '../../platform/auth/link-tokens';

let t: TestApp;
let wsBase: string;
const clients: RealtimeClient[] = [];

// A stand-in for the SendGrid API: records what it was sent and answers 202 like SendGrid.
let sendgrid: http.Server;
let sendgridUrl: string;
let mails: { authorization?: string; body: { personalizations: { to: { email: string }[] }[] } & object }[] =
  [];

beforeAll(async () => {
  sendgrid = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      mails.push({ authorization: req.headers.authorization, body: JSON.parse(body) });
      res.statusCode = 202;
      res.end();
    });
  });
  await new Promise<void>((resolve) => sendgrid.listen(0, '127.0.0.1', resolve));
  sendgridUrl = `http://127.0.0.1:${(sendgrid.address() as AddressInfo).port}`;
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => sendgrid.close(resolve));
});

const sampleId = '00000000-0000-4000-8000-000000000000';

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) {
  return t.request({ method, url, token, payload: payload ?? (method === 'GET' ? undefined : {}) });
}

async function switchTo(who: AuthResponse, organizationId: string): Promise<AuthResponse> {
  const res = await call('POST', '/api/auth/switch-organization', who.token, { organizationId });
  expect(res.statusCode).toBe(200);
  return res.json();
}

function connect(auth: AuthResponse) {
  const client = connectRealtime(`${wsBase}?token=${encodeURIComponent(auth.token)}`);
  clients.push(client);
  return client;
}

function closedWithin(client: RealtimeClient, ms = 2000) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the socket was still open after ${ms} ms`)), ms);
  });
  return Promise.race([client.closed, deadline]).finally(() => clearTimeout(timer));
}

describe('role matrix (from the route inventory)', () => {
  it('answers 403 naming the role below each route’s minimum, and lets the role itself past', async () => {
    const owner = await t.signup();
    const admin = await joinOrganization(t, owner, await t.signup(), 'admin');
    const member = await joinOrganization(t, owner, await t.signup(), 'member');
    const byRole = { owner, admin, member };
    const below = { owner: ['admin', 'member'], admin: ['member'], member: [] } as const;

    const routes = t.app.routeInventory.filter(
      (r) => r.url.startsWith('/api') && r.role && r.method !== 'HEAD' && r.method !== 'OPTIONS',
    );
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const route of routes) {
      const url = route.url.replace(':orgId', owner.organization.id).replace(/:[A-Za-z]+/g, sampleId);
      const method = route.method as 'GET';
      const label = `${route.method} ${route.url}`;
      for (const weaker of below[route.role!]) {
        const res = await call(method, url, byRole[weaker].token);
        expect({ label, weaker, status: res.statusCode, body: res.json() }).toEqual({
          label,
          weaker,
          status: 403,
          body: { message: roleRequired(route.role!) },
        });
      }
      const res = await call(method, url, byRole[route.role!].token);
      expect({ label, status: res.statusCode }).not.toEqual({ label, status: 403 });
    }
  });

  it('names the role in its message', () => {
    expect(roleRequired('admin')).toBe('This action needs the admin role (or owner)');
    expect(roleRequired('owner')).toBe('This action needs the owner role');
  });
});

describe('a team from invitation to removal', () => {
  it('invites, joins, shares the data, switches, and ends access at once on removal', async () => {
    const ada = await t.signup();
    const bea = await t.signup();
    const org = ada.organization.id;

    // Ada's organization has an agent, a workflow and a run.
    const agent = await call('POST', '/api/agents', ada.token, { name: 'Shared', role: 'R', goal: 'G' });
    expect(agent.statusCode).toBe(201);
    const flow = await call('POST', '/api/workflows', ada.token, {
      name: 'Shared flow',
      ...chainOf([agent.json().id]),
    });
    expect(flow.statusCode).toBe(201);
    const [run] = await t.db
      .insert(workflowExecutions)
      .values({
        workflowId: flow.json().id,
        organizationId: org,
        status: 'completed',
        triggeredBy: ada.user.id,
      })
      .returning();

    // Without SendGrid: the invitation works, nothing is emailed, nothing fails.
    const invite = await call('POST', `/api/organizations/${org}/invitations`, ada.token, {
      email: bea.user.email.toUpperCase(),
      role: 'member',
    });
    expect(invite.statusCode).toBe(201);
    const created = invite.json();
    expect(created).toMatchObject({ email: bea.user.email, role: 'member', emailSent: false });
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(created.inviteUrl).toBe(`${t.config.publicUrl}/invite/${created.token}`);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    // Only the token's hash is stored.
    const [stored] = await t.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.id, created.id));
    expect(stored.tokenHash).toBe(hashLinkToken(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    // Public preview.
    const preview = await call('GET', `/api/invitations/${created.token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      organization: { name: ada.organization.name },
      invitedBy: `${ada.user.firstName} ${ada.user.lastName}`,
      email: bea.user.email,
      role: 'member',
      expiresAt: created.expiresAt,
      // No SMTP_URL in this suite: the admin hands out verification links.
      verificationMailed: false,
    });
    expect((await call('GET', `/api/invitations/not-a-token`)).statusCode).toBe(404);

    // Pending list (admin), and someone else's account cannot accept it.
    const pending = await call('GET', `/api/organizations/${org}/invitations`, ada.token);
    expect(pending.json()).toEqual([expect.objectContaining({ id: created.id, email: bea.user.email })]);
    const stranger = await t.signup();
    const mismatch = await call('POST', `/api/invitations/${created.token}/accept`, stranger.token);
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().message).toBe(teamMessages.invitationEmailMismatch);

    // Bea accepts: a member, once.
    const accepted = await call('POST', `/api/invitations/${created.token}/accept`, bea.token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().organization).toMatchObject({ id: org, role: 'member' });
    const reuse = await call('POST', `/api/invitations/${created.token}/accept`, bea.token);
    expect(reuse.statusCode).toBe(404);
    expect((await call('GET', `/api/invitations/${created.token}`)).statusCode).toBe(404);
    expect(t.published).toContainEqual({ type: 'organization_members_changed', organizationId: org });

    // Inviting her again: she is a member.
    const again = await call('POST', `/api/organizations/${org}/invitations`, ada.token, {
      email: bea.user.email,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(teamMessages.alreadyMember);

    // Her organizations, and switching to Ada's.
    const mine = await call('GET', '/api/auth/organizations', bea.token);
    expect(mine.json()).toEqual([
      { id: bea.organization.id, name: bea.organization.name, slug: bea.organization.slug, role: 'owner' },
      { id: org, name: ada.organization.name, slug: ada.organization.slug, role: 'member' },
    ]);
    const beaInAda = await switchTo(bea, org);
    expect(beaInAda.organization).toMatchObject({ id: org, role: 'member' });
    expect(beaInAda.user.id).toBe(bea.user.id);
    const me = await call('GET', '/api/auth/me', beaInAda.token);
    expect(me.json().organization).toMatchObject({ id: org, role: 'member' });
    // The other token still answers for her own organization.
    expect((await call('GET', '/api/auth/me', bea.token)).json().organization.id).toBe(bea.organization.id);

    // She sees Ada's agents, workflows and runs.
    const agents = await call('GET', '/api/agents', beaInAda.token);
    expect(agents.json().map((a: { id: string }) => a.id)).toContain(agent.json().id);
    const flows = await call('GET', '/api/workflows', beaInAda.token);
    expect(flows.json().map((w: { id: string }) => w.id)).toContain(flow.json().id);
    const runs = await call('GET', '/api/executions', beaInAda.token);
    expect(runs.json().map((r: { id: string }) => r.id)).toEqual([run.id]);
    expect((await call('GET', `/api/executions/${run.id}`, beaInAda.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/organizations/${org}/stats`, beaInAda.token)).json().totalAgents).toBe(1);
    // Members are visible to members; invitations and mutations are not theirs.
    const members = await call('GET', `/api/organizations/${org}/members`, beaInAda.token);
    expect(members.json()).toEqual([
      expect.objectContaining({ userId: ada.user.id, role: 'owner', email: ada.user.email }),
      expect.objectContaining({ userId: bea.user.id, role: 'member', username: bea.user.username }),
    ]);
    expect((await call('GET', `/api/organizations/${org}/invitations`, beaInAda.token)).statusCode).toBe(403);
    // A switch to an organization she is not in is not found.
    expect(
      (
        await call('POST', '/api/auth/switch-organization', bea.token, {
          organizationId: stranger.organization.id,
        })
      ).statusCode,
    ).toBe(404);
    // And back.
    const back = await switchTo(beaInAda, bea.organization.id);
    expect(back.organization).toMatchObject({ id: bea.organization.id, role: 'owner' });

    // Sockets: one signed in to Ada's organization, one of her own following both.
    const inAda = connect(beaInAda);
    expect((await inAda.subscribe(org)).type).toBe('subscribed');
    const own = connect(back);
    expect((await own.subscribe(org)).type).toBe('subscribed');
    expect((await own.subscribe(bea.organization.id)).type).toBe('subscribed');

    // Ada removes her.
    const removed = await call('DELETE', `/api/organizations/${org}/members/${bea.user.id}`, ada.token);
    expect(removed.statusCode).toBe(204);
    expect(await closedWithin(inAda)).toEqual({ code: 4401, reason: realtimeMessages.unauthorized });
    expect(t.app.realtimeHub.subscriberCount(org)).toBe(0);
    expect(own.socket.readyState).toBe(own.socket.OPEN);

    // Her next request for Ada's data: not found (not signed out).
    for (const url of [
      '/api/agents',
      `/api/agents/${agent.json().id}`,
      '/api/workflows',
      `/api/executions/${run.id}`,
      `/api/organizations/${org}/stats`,
      `/api/organizations/${org}/members`,
      '/api/auth/me',
    ]) {
      const res = await call('GET', url, beaInAda.token);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 404 });
    }
    // That token still lists her organizations, switches and signs out.
    const left = await call('GET', '/api/auth/organizations', beaInAda.token);
    expect(left.json().map((o: { id: string }) => o.id)).toEqual([bea.organization.id]);
    expect(
      (await call('POST', '/api/auth/switch-organization', beaInAda.token, { organizationId: org }))
        .statusCode,
    ).toBe(404);
    const home = await switchTo(beaInAda, bea.organization.id);
    expect((await call('GET', '/api/agents', home.token)).statusCode).toBe(200);
    expect((await call('POST', '/api/auth/logout', beaInAda.token)).statusCode).toBe(204);
    expect((await call('GET', '/api/auth/organizations', beaInAda.token)).statusCode).toBe(401);
    // Her own organization still works, on the socket too.
    expect((await call('GET', '/api/agents', bea.token)).statusCode).toBe(200);
    expect((await own.subscribe(org)).type).toBe('error');
    const later = await call('POST', '/api/agents', bea.token, { name: 'Still mine', role: 'R', goal: 'G' });
    await own.waitFor((m) => m.type === 'agent_created' && m.agentId === later.json().id);
  });

  it('refuses expired and revoked invitations, and a new one replaces the pending one', async () => {
    const ada = await t.signup();
    const cy = await t.signup();
    const org = ada.organization.id;
    const invite = (email = cy.user.email) =>
      call('POST', `/api/organizations/${org}/invitations`, ada.token, { email, role: 'admin' });

    const first = (await invite()).json();
    const second = (await invite()).json();
    expect((await call('GET', `/api/invitations/${first.token}`)).statusCode).toBe(404);
    expect((await call('POST', `/api/invitations/${first.token}/accept`, cy.token)).statusCode).toBe(404);
    const list = await call('GET', `/api/organizations/${org}/invitations`, ada.token);
    expect(list.json().map((i: { id: string }) => i.id)).toEqual([second.id]);

    // Revoked.
    expect(
      (await call('DELETE', `/api/organizations/${org}/invitations/${second.id}`, ada.token)).statusCode,
    ).toBe(204);
    expect(
      (await call('DELETE', `/api/organizations/${org}/invitations/${second.id}`, ada.token)).statusCode,
    ).toBe(404);
    expect((await call('POST', `/api/invitations/${second.token}/accept`, cy.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/organizations/${org}/invitations`, ada.token)).json()).toEqual([]);

    // Expired.
    const third = (await invite()).json();
    await t.db
      .update(organizationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organizationInvitations.id, third.id));
    expect((await call('GET', `/api/invitations/${third.token}`)).statusCode).toBe(404);
    const expired = await call('POST', `/api/invitations/${third.token}/accept`, cy.token);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().message).toBe(teamMessages.invitationNotFound);

    // Another organization's invitation cannot be revoked from here.
    const other = await t.signup();
    expect(
      (await call('DELETE', `/api/organizations/${org}/invitations/${third.id}`, other.token)).statusCode,
    ).toBe(404);
  });

  it('emails the link through the organization’s SendGrid connection', async () => {
    const ada = await t.signup();
    const configured = await call('PUT', '/api/tools/configurations/sendgrid_config', ada.token, {
      config: { apiKey: 'SG.team-key', fromEmail: 'team@acme.test', baseUrl: sendgridUrl },
      isActive: true,
    });
    expect(configured.statusCode).toBe(200);
    mails = [];
    const res = await call('POST', `/api/organizations/${ada.organization.id}/invitations`, ada.token, {
      email: 'newcomer@example.com',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ emailSent: true, role: 'member' });
    expect(mails).toHaveLength(1);
    expect(mails[0].authorization).toBe('Bearer SG.team-key');
    expect(mails[0].body.personalizations[0].to).toEqual([{ email: 'newcomer@example.com' }]);
    expect(JSON.stringify(mails[0].body)).toContain(res.json().inviteUrl);
  });
});

describe('roles and owners', () => {
  it('keeps at least one owner, and leaves owner changes to owners', async () => {
    const ada = await t.signup();
    const org = ada.organization.id;
    const members = (token: string) => call('GET', `/api/organizations/${org}/members`, token);
    const setRole = (token: string, userId: string, role: string) =>
      call('PUT', `/api/organizations/${org}/members/${userId}`, token, { role });
    const remove = (token: string, userId: string) =>
      call('DELETE', `/api/organizations/${org}/members/${userId}`, token);

    // The only owner can neither be demoted nor removed nor leave.
    for (const res of [
      await setRole(ada.token, ada.user.id, 'admin'),
      await remove(ada.token, ada.user.id),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(teamMessages.lastOwner);
    }

    const ben = await joinOrganization(t, ada, await t.signup(), 'admin');
    const cat = await joinOrganization(t, ada, await t.signup(), 'member');

    // An admin manages members and admins, not owners.
    const promoted = await setRole(ben.token, cat.user.id, 'admin');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ userId: cat.user.id, role: 'admin' });
    // Takes effect on cat's next request: she may now list invitations.
    expect((await call('GET', `/api/organizations/${org}/invitations`, cat.token)).statusCode).toBe(200);
    expect((await setRole(ben.token, cat.user.id, 'member')).statusCode).toBe(200);
    expect((await call('GET', `/api/organizations/${org}/invitations`, cat.token)).statusCode).toBe(403);
    for (const res of [
      await setRole(ben.token, cat.user.id, 'owner'),
      await setRole(ben.token, ada.user.id, 'admin'),
      await remove(ben.token, ada.user.id),
      await call('POST', `/api/organizations/${org}/invitations`, ben.token, {
        email: 'o@example.com',
        role: 'owner',
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(roleRequired('owner'));
    }
    // A member changes no one, removes no one else, and renames nothing.
    expect((await setRole(cat.token, cat.user.id, 'admin')).json().message).toBe(roleRequired('admin'));
    const memberRemoves = await remove(cat.token, ben.user.id);
    expect(memberRemoves.statusCode).toBe(403);
    expect(memberRemoves.json().message).toBe(roleRequired('admin'));
    expect((await call('PUT', `/api/organizations/${org}`, cat.token, { name: 'Mine now' })).statusCode).toBe(
      403,
    );
    // Unknown members are not found.
    expect((await setRole(ada.token, sampleId, 'admin')).statusCode).toBe(404);
    expect((await remove(ada.token, 'not-a-uuid')).statusCode).toBe(404);

    // The owner makes ben owner; then ada may step down, and ben may not be demoted by an admin.
    expect((await setRole(ada.token, ben.user.id, 'owner')).statusCode).toBe(200);
    expect((await setRole(ada.token, ada.user.id, 'admin')).statusCode).toBe(200);
    expect((await setRole(ben.token, ada.user.id, 'owner')).statusCode).toBe(200);
    // Two owners: one may leave; then the other is the last.
    expect((await remove(ben.token, ben.user.id)).statusCode).toBe(204);
    expect((await remove(ada.token, ada.user.id)).statusCode).toBe(409);
    expect((await setRole(ada.token, ada.user.id, 'member')).statusCode).toBe(409);
    // An admin removes a member; the member list shows who is left.
    expect((await setRole(ada.token, cat.user.id, 'member')).statusCode).toBe(200);
    expect((await members(ada.token)).json().map((m: { userId: string }) => m.userId)).toEqual([
      ada.user.id,
      cat.user.id,
    ]);
    // A member leaves on their own.
    expect((await remove(cat.token, cat.user.id)).statusCode).toBe(204);
    expect((await members(ada.token)).json()).toHaveLength(1);
  });

  it('renames the organization (the slug stays), for admins', async () => {
    const ada = await t.signup();
    const org = ada.organization.id;
    const renamed = await call('PUT', `/api/organizations/${org}`, ada.token, { name: '  Acme Research  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      id: org,
      name: 'Acme Research',
      slug: ada.organization.slug,
      role: 'owner',
    });
    expect((await call('GET', '/api/auth/me', ada.token)).json().organization.name).toBe('Acme Research');
    expect((await call('PUT', `/api/organizations/${org}`, ada.token, { name: '' })).statusCode).toBe(400);
    const other = await t.signup();
    expect((await call('PUT', `/api/organizations/${org}`, other.token, { name: 'Taken' })).statusCode).toBe(
      404,
    );
  });
});
