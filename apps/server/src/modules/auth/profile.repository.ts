import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { users, type Db } from '@crewline/db';
import type { UserRow } from './auth.repository';

/** The signed-in user's own record: profile fields and password (modules/auth/profile.routes.ts). */
export function createProfileRepository(db: Db) {
  return {
    /**
     * Which of the given identities another user already holds: email and username compared without
     * case, as at signup.
     */
    async findTakenByOthers(userId: string, identity: { email?: string; username?: string }) {
      const matches: SQL[] = [];
      if (identity.email) matches.push(sql`lower(${users.email}) = lower(${identity.email})`);
      if (identity.username) matches.push(sql`lower(${users.username}) = lower(${identity.username})`);
      if (matches.length === 0) return { email: false, username: false };
      const rows = await db
        .select({ email: users.email, username: users.username })
        .from(users)
        .where(and(ne(users.id, userId), or(...matches)));
      const same = (a: string, b?: string) => b !== undefined && a.toLowerCase() === b.toLowerCase();
      return {
        email: rows.some((r) => same(r.email, identity.email)),
        username: rows.some((r) => same(r.username, identity.username)),
      };
    },

    /** Writes the given fields; undefined ones are left as they are. */
    async updateUser(
      userId: string,
      patch: Partial<Pick<UserRow, 'firstName' | 'lastName' | 'username' | 'email' | 'emailVerifiedAt'>>,
    ): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set(patch).where(eq(users.id, userId)).returning();
      return row;
    },

    async findPasswordHash(userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ password: users.password })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row?.password;
    },

    async setPasswordHash(userId: string, password: string): Promise<void> {
      await db.update(users).set({ password }).where(eq(users.id, userId));
    },
  };
}
export type ProfileRepository = ReturnType<typeof createProfileRepository>;
