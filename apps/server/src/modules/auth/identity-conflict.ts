import { messages } from '@crewline/contracts';
import { ConflictError } from '../../platform/errors';
import { isUniqueViolation } from './auth.repository';

/** The 409 for an email or username another account holds, at signup and on a profile edit alike. */
export function identityConflict(taken: { email: boolean; username: boolean }): ConflictError | undefined {
  if (taken.email) return new ConflictError(messages.emailTaken);
  if (taken.username) return new ConflictError(messages.usernameTaken);
  return undefined;
}

/** The same 409 when two writes raced past the check and the database's unique index decided. */
export function identityConflictOf(error: unknown): ConflictError | undefined {
  return identityConflict({
    email: isUniqueViolation(error, 'email'),
    username: isUniqueViolation(error, 'username'),
  });
}
