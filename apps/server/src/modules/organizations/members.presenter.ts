import { and, eq, sql } from 'drizzle-orm';
import { userOrganizations, users, type Db } from '@crewline/db';

export type MemberRow = {
  userId: string;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  joinedAt: Date;
};

/**
 * An organization's members as the team pages read them: memberships with their users (auth's
 * tables), read only; the team module changes them with the statements of auth/memberships.columns.ts.
 */
export function createMembersPresenter(db: Db) {
  return {
    async listMembers(organizationId: string): Promise<MemberRow[]> {
      return db
        .select({
          userId: users.id,
          username: users.username,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          role: userOrganizations.role,
          joinedAt: userOrganizations.createdAt,
        })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .where(eq(userOrganizations.organizationId, organizationId))
        .orderBy(userOrganizations.createdAt, users.username);
    },

    async findMemberRole(organizationId: string, userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ role: userOrganizations.role })
        .from(userOrganizations)
        .where(
          and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)),
        )
        .limit(1);
      return row?.role;
    },

    async isMemberByEmail(organizationId: string, email: string): Promise<boolean> {
      const rows = await db
        .select({ id: userOrganizations.id })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .where(
          and(eq(userOrganizations.organizationId, organizationId), sql`lower(${users.email}) = ${email}`),
        )
        .limit(1);
      return rows.length > 0;
    },

    /** The account that uses `email` (invitations store it lower-cased), with whether it is verified. */
    async findAccountByEmail(email: string) {
      const [row] = await db
        .select({ id: users.id, email: users.email, emailVerifiedAt: users.emailVerifiedAt })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .limit(1);
      return row;
    },
  };
}
export type MembersPresenter = ReturnType<typeof createMembersPresenter>;
