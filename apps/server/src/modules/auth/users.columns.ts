import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/*
 * SQL auth offers to other modules' reads of users: the auth module owns the table. Runs, workflow
 * versions and invitations name the user who started, saved or sent them with it.
 */

/**
 * The display name of the user `userId` (the read's column or SQL of a user id): their full name,
 * else their username; null without such a user.
 */
export const userDisplayName = (userId: AnyColumn | SQL): SQL<string | null> => sql<string | null>`(select
  coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.username)
  from users u where u.id = ${userId})`;
