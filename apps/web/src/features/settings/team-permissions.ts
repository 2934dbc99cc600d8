// Which team controls a viewer may use (docs/security.md, Tenancy and roles). The server checks every one of
// them again; this only decides what the Organization tab shows, hides or disables.
import type { Member, OrganizationRole } from '@crewline/contracts';

export const ROLE_LABELS: Record<OrganizationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

export const ROLE_DESCRIPTIONS: Record<OrganizationRole, string> = {
  owner: 'Everything, including managing owners',
  admin: 'Also manages members, invitations, connections and the name',
  member: 'Builds and runs agents, tools and workflows',
};

/** The role's label ('Owner'); an unknown role is shown as it is. */
export function roleLabel(role: string): string {
  return ROLE_LABELS[role as OrganizationRole] ?? role;
}

function isRole(role: string | null | undefined): role is OrganizationRole {
  return role === 'owner' || role === 'admin' || role === 'member';
}

/** Admins and owners rename the organization, invite and see the pending invitations. */
export function canManageTeam(viewerRole: string | null | undefined): boolean {
  return viewerRole === 'owner' || viewerRole === 'admin';
}

/** Connections (model providers, tool configurations, Microsoft 365) are changed by admins and owners. */
export function canChangeConnections(viewerRole: string | null | undefined): boolean {
  return canManageTeam(viewerRole);
}

/** Shown before any edit to whoever may not make it (the server answers 403 the same way). */
export const CONNECTIONS_READ_ONLY = 'Only owners and admins can change model connections.';
export const ORGANIZATION_READ_ONLY = 'Only owners and admins can rename the organization or invite people.';

/** The tooltip of a control an admin (or owner) may use. */
export const NEEDS_ADMIN = 'Needs the admin role (or owner)';
/** The tooltip of a control only an owner may use. */
export const NEEDS_OWNER = 'Needs the owner role';

/** The roles an invitation from this viewer may carry (only owners invite owners). */
export function invitableRoles(viewerRole: string | null | undefined): OrganizationRole[] {
  if (viewerRole === 'owner') return ['member', 'admin', 'owner'];
  if (viewerRole === 'admin') return ['member', 'admin'];
  return [];
}

export interface MemberControls {
  /** The roles the viewer may give this member (the current one included); empty: no change. */
  roleOptions: OrganizationRole[];
  /** Why the role cannot be changed (tooltip), or null when it can or when the control is hidden. */
  roleBlockedReason: string | null;
  /** Whether the row offers Remove (someone else) or Leave (the viewer's own row). */
  action: 'remove' | 'leave' | null;
  /** Why Remove is disabled (tooltip), or null. */
  removeBlockedReason: string | null;
}

/**
 * The controls of one member row for this viewer. A member sees no controls on other rows (only
 * Leave on their own); an admin changes non-owners between admin and member and removes them; an
 * owner does everything. The last owner's refusal (409) is the server's to say.
 */
export function memberControls(
  viewer: { userId: string; role: string | null | undefined },
  member: Pick<Member, 'userId' | 'role'>,
): MemberControls {
  const self = viewer.userId === member.userId;
  const viewerRole = isRole(viewer.role) ? viewer.role : null;
  const targetIsOwner = member.role === 'owner';

  if (viewerRole === 'owner') {
    return {
      roleOptions: ['owner', 'admin', 'member'],
      roleBlockedReason: null,
      action: self ? 'leave' : 'remove',
      removeBlockedReason: null,
    };
  }
  if (viewerRole === 'admin') {
    if (targetIsOwner) {
      return {
        roleOptions: [],
        roleBlockedReason: NEEDS_OWNER,
        action: self ? 'leave' : 'remove',
        removeBlockedReason: self ? null : NEEDS_OWNER,
      };
    }
    return {
      roleOptions: ['admin', 'member'],
      roleBlockedReason: null,
      action: self ? 'leave' : 'remove',
      removeBlockedReason: null,
    };
  }
  // A member (or an unknown role): only leaving.
  return {
    roleOptions: [],
    roleBlockedReason: null,
    action: self ? 'leave' : null,
    removeBlockedReason: null,
  };
}

/** 'Ada Lovelace', else the username. */
export function memberName(member: Pick<Member, 'firstName' | 'lastName' | 'username'>): string {
  return [member.firstName, member.lastName].filter(Boolean).join(' ') || member.username;
}

/** Two letters for the avatar. */
export function memberInitials(member: Pick<Member, 'firstName' | 'lastName' | 'username'>): string {
  const letters = `${member.firstName?.trim()[0] ?? ''}${member.lastName?.trim()[0] ?? ''}`;
  return (letters || member.username.slice(0, 2) || '?').toUpperCase();
}

/** Owners first, then admins, then members; by name within a role. */
export function sortMembers<T extends Pick<Member, 'role' | 'firstName' | 'lastName' | 'username'>>(
  members: readonly T[],
): T[] {
  const rank = (role: string) => (role === 'owner' ? 0 : role === 'admin' ? 1 : role === 'member' ? 2 : 3);
  return [...members].sort(
    (a, b) => rank(a.role) - rank(b.role) || memberName(a).localeCompare(memberName(b)),
  );
}

/** The sentence under a new invitation's link. */
export function inviteDeliveryText(invitation: { email: string; emailSent: boolean }): string {
  return invitation.emailSent
    ? `We emailed this link to ${invitation.email}. You can also share it yourself.`
    : `The link was not emailed (email sending is not set up): copy it and send it to ${invitation.email}.`;
}

/** Under a verification link the admin got (no mail transport): what to do with it. */
export const VERIFICATION_LINK_HINT =
  'No mail server is configured: give this link to the invitee with the invitation. It verifies their address so they can accept.';

/**
 * Whether an invitation offers 'Verification link': only when the server mails no verification links
 * (no SMTP_URL), so the admin passes it on. An answer without the flag (an older server) offers none.
 */
export function offersVerificationLink(invitation: { verificationMailed?: boolean }): boolean {
  return invitation.verificationMailed === false;
}
