// The addresses of the invitation flow: /invite/:token sends a signed-out invitee to sign up or log
// in with `invite=<token>` (and the invited email), and those pages come back to the invitation.

/** What an invitation token looks like (base64url of 32 bytes); anything else is not followed. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,200}$/;

export function isInvitationToken(value: string | null | undefined): value is string {
  return !!value && TOKEN_PATTERN.test(value);
}

export function invitationPath(token: string): string {
  return `/invite/${encodeURIComponent(token)}`;
}

/** /signup?email=…&invite=… */
export function signupHrefForInvite(token: string, email?: string | null): string {
  const params = new URLSearchParams();
  if (email) params.set('email', email);
  params.set('invite', token);
  return `/signup?${params.toString()}`;
}

/** /login?invite=…(&email=…) */
export function loginHrefForInvite(token: string, email?: string | null): string {
  const params = new URLSearchParams({ invite: token });
  if (email) params.set('email', email);
  return `/login?${params.toString()}`;
}

/** Where signup or login goes on success: back to the invitation when the address names one. */
export function afterAuthPath(search: URLSearchParams): string {
  const token = search.get('invite');
  return isInvitationToken(token) ? invitationPath(token) : '/dashboard';
}

/** The same invitation parameters on the link to the other form (signup ↔ login). */
export function carryInvite(path: '/login' | '/signup', search: URLSearchParams): string {
  const token = search.get('invite');
  if (!isInvitationToken(token)) return path;
  const email = search.get('email');
  return path === '/login' ? loginHrefForInvite(token, email) : signupHrefForInvite(token, email);
}

/** "Ada Lovelace invited you to join Acme as an admin." */
export function invitationSentence(preview: {
  invitedBy: string | null;
  organization: { name: string };
  role: string;
}): string {
  const who = preview.invitedBy?.trim() || 'Someone';
  const article = preview.role === 'admin' || preview.role === 'owner' ? 'an' : 'a';
  return `${who} invited you to join ${preview.organization.name} as ${article} ${preview.role}.`;
}
