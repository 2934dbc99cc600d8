import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { joinOrganization } from '../../testing/app-fixtures';
import { connectRealtime, type RealtimeClient } from '../../testing/realtime-client';

// A role change reaches the member's open pages: the event names them, so their session refetches.
let t: TestApp;
let wsBase: string;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => {
  for (const client of clients) client.close();
  await t.close();
});

describe('changing a member’s role', () => {
  it('publishes organization_members_changed naming the member, to their open socket', async () => {
    const owner = await t.signup();
    const member = await joinOrganization(t, owner, await t.signup(), 'member');
    const orgId = owner.organization.id;
    const socket = connectRealtime(`${wsBase}?token=${encodeURIComponent(member.token)}`);
    clients.push(socket);
    expect((await socket.subscribe(orgId)).type).toBe('subscribed');

    const res = await t.request({
      method: 'PUT',
      url: `/api/organizations/${orgId}/members/${member.user.id}`,
      token: owner.token,
      payload: { role: 'admin' },
    });
    expect(res.statusCode).toBe(200);
    const event = await socket.waitFor((m) => m.type === 'organization_members_changed');
    expect(event).toEqual({
      type: 'organization_members_changed',
      organizationId: orgId,
      userId: member.user.id,
    });

    // The member's next read of their session says Admin.
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: member.token });
    expect(me.json().organization.role).toBe('admin');
  });

  it('publishes nothing when the role stays or the change is refused', async () => {
    const owner = await t.signup();
    const admin = await joinOrganization(t, owner, await t.signup(), 'admin');
    const before = t.published.length;
    const same = await t.request({
      method: 'PUT',
      url: `/api/organizations/${owner.organization.id}/members/${admin.user.id}`,
      token: owner.token,
      payload: { role: 'admin' },
    });
    expect(same.statusCode).toBe(200);
    const lastOwner = await t.request({
      method: 'PUT',
      url: `/api/organizations/${owner.organization.id}/members/${owner.user.id}`,
      token: owner.token,
      payload: { role: 'member' },
    });
    expect(lastOwner.statusCode).toBe(409);
    expect(t.published.slice(before).filter((e) => e.type === 'organization_members_changed')).toEqual([]);
  });
});
