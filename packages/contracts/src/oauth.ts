// OAuth 2.1 for the organization's MCP server (docs/security.md, OAuth for MCP clients): connectors
// such as Claude or ChatGPT register themselves, a signed-in member consents for one of their
// organizations, and the connector calls `POST /mcp` with the access token it gets. The protocol's own
// routes (`/.well-known/…`, `/oauth/…`) speak RFC 6749's wire format; these are the app's parts: the
// consent page's and Settings' (Connected apps).
import { z } from 'zod';

/** How long a code, an access token and a refresh token live. */
export const OAUTH_CODE_SECONDS = 60;
export const OAUTH_ACCESS_TOKEN_SECONDS = 60 * 60;
export const OAUTH_REFRESH_TOKEN_SECONDS = 60 * 60 * 24 * 90;

/** The web app's page the authorization endpoint sends the browser to (apps/web, outside the shell). */
export const OAUTH_CONSENT_PAGE = '/oauth/consent';

export const oauthMessages = {
  /** The consent page's title. */
  consentTitle: (clientName: string) => `${clientName} wants to use your Crewline workflows`,
  clientNotFound:
    'This app is not registered with Crewline, or its redirect address is not one it registered.',
  notMember: 'You are not a member of that organization.',
  grantNotFound: 'Connected app not found',
  revokeNotAllowed: 'Only owners, admins and the member who connected the app can revoke it.',
  badRequest: 'This sign-in request is incomplete or invalid. Start again from the app.',
} as const;

/** GET /api/oauth/consent: the app asking, checked as the authorization endpoint checked it. */
export const oauthConsentQuerySchema = z.object({
  clientId: z.string().min(1).max(200),
  redirectUri: z.string().min(1).max(2000),
});
export type OAuthConsentQuery = z.infer<typeof oauthConsentQuerySchema>;

export const oauthConsentInfoSchema = z.object({
  clientName: z.string(),
  /** Where the browser goes back to (the host of the redirect address), shown so a member knows. */
  redirectHost: z.string(),
});
export type OAuthConsentInfo = z.infer<typeof oauthConsentInfoSchema>;

/**
 * POST /api/oauth/consent: Allow (for one organization of the member) or Deny. The authorization
 * request's parameters travel with it and are checked again.
 */
export const oauthConsentSchema = oauthConsentQuerySchema.extend({
  codeChallenge: z.string().min(43).max(128),
  state: z.string().max(2000).optional(),
  resource: z.string().max(2000).optional(),
  organizationId: z.string().max(100).optional(),
  allow: z.boolean(),
});
export type OAuthConsentInput = z.infer<typeof oauthConsentSchema>;

/** Where the browser goes next: the app's redirect address with the code (or the refusal). */
export const oauthConsentResultSchema = z.object({ redirectTo: z.string() });
export type OAuthConsentResult = z.infer<typeof oauthConsentResultSchema>;

/** A connected app of the organization, as Settings → API keys lists it (never a token). */
export const oauthGrantSchema = z.object({
  id: z.string(),
  clientName: z.string(),
  grantedBy: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Whether the reader may revoke it: owners and admins, and the member who granted it. */
  canRevoke: z.boolean(),
});
export type OAuthGrant = z.infer<typeof oauthGrantSchema>;
