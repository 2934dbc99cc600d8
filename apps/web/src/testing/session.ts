import type { Session } from '@crewline/contracts';

/**
 * A signed-in session as `GET /api/auth/me` answers it: Ada of Acme, with the role, plan or
 * organization a test needs.
 */
export function aSession(organization: Partial<Session['organization']> = {}): Session {
  return {
    user: {
      id: 'u1',
      username: 'ada',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: null,
      role: 'user',
      emailVerified: true,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    organization: {
      id: 'o1',
      name: 'Acme',
      slug: 'acme',
      plan: 'professional',
      role: 'member',
      trialEndsAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      ...organization,
    },
  };
}
