import { describe, expect, it } from 'vitest';

import {
  canChangeConnections,
  canManageTeam,
  CONNECTIONS_READ_ONLY,
  invitableRoles,
  inviteDeliveryText,
  memberControls,
  memberInitials,
  memberName,
  NEEDS_ADMIN,
  NEEDS_OWNER,
  offersVerificationLink,
  roleLabel,
  sortMembers,
} from './team-permissions';

const owner = { userId: 'o', role: 'owner' };
const admin = { userId: 'a', role: 'admin' };
const member = { userId: 'm', role: 'member' };

describe('memberControls', () => {
  it('lets an owner give any role to anyone and remove them; their own row offers Leave', () => {
    expect(memberControls(owner, { userId: 'x', role: 'owner' })).toEqual({
      roleOptions: ['owner', 'admin', 'member'],
      roleBlockedReason: null,
      action: 'remove',
      removeBlockedReason: null,
    });
    expect(memberControls(owner, { userId: 'o', role: 'owner' }).action).toBe('leave');
  });

  it('lets an admin move non-owners between admin and member and remove them', () => {
    expect(memberControls(admin, { userId: 'x', role: 'member' })).toEqual({
      roleOptions: ['admin', 'member'],
      roleBlockedReason: null,
      action: 'remove',
      removeBlockedReason: null,
    });
    expect(memberControls(admin, { userId: 'y', role: 'admin' }).roleOptions).toEqual(['admin', 'member']);
    expect(memberControls(admin, { userId: 'a', role: 'admin' }).action).toBe('leave');
  });

  it('shows an admin why an owner is out of reach', () => {
    expect(memberControls(admin, { userId: 'x', role: 'owner' })).toEqual({
      roleOptions: [],
      roleBlockedReason: NEEDS_OWNER,
      action: 'remove',
      removeBlockedReason: NEEDS_OWNER,
    });
  });

  it('gives a member nothing but Leave on their own row', () => {
    expect(memberControls(member, { userId: 'x', role: 'member' })).toEqual({
      roleOptions: [],
      roleBlockedReason: null,
      action: null,
      removeBlockedReason: null,
    });
    expect(memberControls(member, { userId: 'm', role: 'member' }).action).toBe('leave');
  });

  it('treats an unknown viewer role as a member', () => {
    expect(memberControls({ userId: 'z', role: 'guest' }, { userId: 'x', role: 'member' }).action).toBeNull();
    expect(
      memberControls({ userId: 'z', role: undefined }, { userId: 'x', role: 'member' }).roleOptions,
    ).toEqual([]);
  });
});

describe('team roles', () => {
  it('lets admins and owners manage the team', () => {
    expect(canManageTeam('owner')).toBe(true);
    expect(canManageTeam('admin')).toBe(true);
    expect(canManageTeam('member')).toBe(false);
    expect(canManageTeam(null)).toBe(false);
    expect(NEEDS_ADMIN).toMatch(/admin role/);
  });

  it('offers owner invitations to owners only', () => {
    expect(invitableRoles('owner')).toEqual(['member', 'admin', 'owner']);
    expect(invitableRoles('admin')).toEqual(['member', 'admin']);
    expect(invitableRoles('member')).toEqual([]);
  });

  it('labels roles', () => {
    expect(roleLabel('owner')).toBe('Owner');
    expect(roleLabel('member')).toBe('Member');
    expect(roleLabel('auditor')).toBe('auditor');
  });
});

describe('member display', () => {
  const ada = { firstName: 'Ada', lastName: 'Lovelace', username: 'ada' };
  const bare = { firstName: null, lastName: null, username: 'grace' };

  it('names a member by their name, else their username', () => {
    expect(memberName(ada)).toBe('Ada Lovelace');
    expect(memberName(bare)).toBe('grace');
    expect(memberInitials(ada)).toBe('AL');
    expect(memberInitials(bare)).toBe('GR');
  });

  it('sorts owners, then admins, then members, by name', () => {
    const sorted = sortMembers([
      { ...bare, role: 'member' },
      { ...ada, role: 'member' },
      { ...bare, username: 'zed', role: 'owner' },
      { ...bare, username: 'bob', role: 'admin' },
    ]);
    expect(sorted.map(memberName)).toEqual(['zed', 'bob', 'Ada Lovelace', 'grace']);
  });

  it('says whether the invitation link was emailed', () => {
    expect(inviteDeliveryText({ email: 'x@y.z', emailSent: true })).toMatch(/emailed this link to x@y.z/);
    expect(inviteDeliveryText({ email: 'x@y.z', emailSent: false })).toMatch(/not emailed.*x@y.z/);
  });
});

describe('connections', () => {
  it('are changed by owners and admins; a member reads them and is told why', () => {
    expect(canChangeConnections('owner')).toBe(true);
    expect(canChangeConnections('admin')).toBe(true);
    expect(canChangeConnections('member')).toBe(false);
    expect(canChangeConnections(undefined)).toBe(false);
    expect(CONNECTIONS_READ_ONLY).toBe('Only owners and admins can change model connections.');
  });
});

describe('offersVerificationLink', () => {
  it('offers the link only when the server mails no verification links', () => {
    expect(offersVerificationLink({ verificationMailed: false })).toBe(true);
    expect(offersVerificationLink({ verificationMailed: true })).toBe(false);
    // An answer without the flag (an older server) offers nothing it may not have.
    expect(offersVerificationLink({})).toBe(false);
  });
});
