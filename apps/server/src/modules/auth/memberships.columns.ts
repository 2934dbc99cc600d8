import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { OrganizationRole } from '@crewline/contracts';

/*
 * Statements auth offers over memberships (user_organizations) and organizations, which it owns:
 * the team module runs the membership and name changes in its own transactions (an acceptance stays
 * one), and realtime checks who may follow an organization. Each takes its values as parameters.
 */

/**
 * Locks the organization's owner rows (`user_id` each): a change that can take away an owner runs it
 * first in its transaction, so two of them cannot both remove "the other" owner and leave none.
 */
export const lockOwnersSql = (organizationId: string) => sql`select user_id from user_organizations
  where organization_id = ${organizationId} and role = 'owner' for update`;

/** Sets a member's role; returns `id`, and `notified`, the change's notification column. */
export const setRoleSql = (organizationId: string, userId: string, role: OrganizationRole, notified: SQL) =>
  sql`update user_organizations set role = ${role}
    where organization_id = ${organizationId} and user_id = ${userId}
    returning id, ${notified} as notified`;

/** Ends a membership; returns its `id`. */
export const deleteMembershipSql = (organizationId: string, userId: string) =>
  sql`delete from user_organizations where organization_id = ${organizationId} and user_id = ${userId}
    returning id`;

/** Adds a membership with `role`; returns the `role`, or no row when the user is a member already. */
export const addMembershipSql = (userId: string, organizationId: string, role: OrganizationRole) =>
  sql`insert into user_organizations (user_id, organization_id, role) values (${userId}, ${organizationId}, ${role})
    on conflict do nothing returning role`;

/** Renames an organization (the slug stays); returns its `id`, no row when there is none. */
export const renameOrganizationSql = (organizationId: string, name: string) =>
  sql`update organizations set name = ${name}, updated_at = now() where id = ${organizationId} returning id`;

/**
 * True while the user `user` names belongs to the organization `organization` names (any role): a
 * column or SQL of the statement that asks, or bound values (`sql\`${id}\``).
 */
export const isMemberSql = (user: SQL, organization: SQL) =>
  sql`exists (select 1 from user_organizations m where m.user_id = ${user} and m.organization_id = ${organization})`;

/**
 * For each of the sessions still live (not revoked, not expired), its `session_id`, its own
 * `session_organization_id` and one row per `organization_id` its user belongs to.
 */
export const sessionOrganizationsSql = (sessionIds: string[]) => sql`select s.id as session_id,
    s.organization_id as session_organization_id, m.organization_id
  from auth_sessions s join user_organizations m on m.user_id = s.user_id
  where s.id = any(${sql.param(sessionIds)}::uuid[]) and s.revoked_at is null and s.expires_at > now()`;

/** The name of the organization `organizationId` (the read's column or SQL of its id), as a column. */
export const organizationNameSql = (organizationId: AnyColumn | SQL): SQL<string> =>
  sql<string>`(select o.name from organizations o where o.id = ${organizationId})`;
