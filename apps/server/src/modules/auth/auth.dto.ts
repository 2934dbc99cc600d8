import type { Organization, Session, User } from '@crewline/contracts';
import type { Membership, OrganizationRow, UserRow } from './auth.repository';

// Explicit mapping: the password hash and Stripe ids can never reach a response by accident.
function toUserDto(user: UserRow): User {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    emailVerified: user.emailVerifiedAt !== null,
    createdAt: user.createdAt.toISOString(),
  };
}

export function toOrganizationDto(organization: OrganizationRow, role: string): Organization {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    plan: organization.plan,
    role,
    trialEndsAt: organization.trialEndsAt?.toISOString() ?? null,
    createdAt: organization.createdAt.toISOString(),
  };
}

export function toSessionDto(m: Membership): Session {
  return { user: toUserDto(m.user), organization: toOrganizationDto(m.organization, m.role) };
}
