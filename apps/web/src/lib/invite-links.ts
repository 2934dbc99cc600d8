// The addresses of the invitation flow: /invite/:token sends a signed-out invitee to sign up or log
// in with `invite=<token>` (and the invited email), and those pages come back to the invitation. The
// landing page's Use Template (`template=<id>`) and a signed-out visit to an app page (`next=<path>`)
// come back the same way.

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

/** A template id (the landing page's Use Template passes `template=<uuid>`). */
const TEMPLATE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path of this app to come back to: one leading slash only, so never another origin. */
function isOwnPath(value: string | null): value is string {
  return !!value && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\');
}

/**
 * /login?next=<path>: a signed-out visit to an app page signs in first, then comes back to it (the
 * dashboard, where signing in goes anyway, without `next`).
 */
export function signInFirstHref(pathname: string, search = ''): string {
  const next = `${pathname}${search}`;
  if (!isOwnPath(next) || pathname === '/' || pathname === '/dashboard') return '/login';
  return `/login?${new URLSearchParams({ next })}`;
}

/**
 * Where signup or login goes on success: back to the invitation when the address names one, the
 * template the landing page's Use Template chose (`template`), the page that sent a signed-out
 * visitor to sign in (`next`), else the dashboard.
 */
export function afterAuthPath(search: URLSearchParams): string {
  const token = search.get('invite');
  if (isInvitationToken(token)) return invitationPath(token);
  const template = search.get('template');
  if (template && TEMPLATE_ID.test(template)) return `/templates?${new URLSearchParams({ template })}`;
  const next = search.get('next');
  return isOwnPath(next) ? next : '/dashboard';
}

/** The same invitation (or template, or next page) parameters on the link to the other form (signup ↔ login). */
export function carryInvite(path: '/login' | '/signup', search: URLSearchParams): string {
  const token = search.get('invite');
  if (!isInvitationToken(token)) {
    const kept = new URLSearchParams();
    for (const key of ['template', 'next']) {
      const value = search.get(key);
      if (value) kept.set(key, value);
    }
    return kept.size > 0 ? `${path}?${kept}` : path;
  }
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
