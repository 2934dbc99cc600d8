import { z } from 'zod';
import {
  idParamsSchema,
  oauthConsentInfoSchema,
  oauthConsentQuerySchema,
  oauthConsentResultSchema,
  oauthConsentSchema,
  oauthGrantSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/**
 * The app's side of OAuth for MCP clients: the consent page (a signed-in member, never a key) and the
 * connected apps in Settings. The protocol's routes (`/oauth/authorize`, `/oauth/token`, …) are not
 * under /api and speak RFC 6749.
 */
export const oauthEndpoints = {
  consentInfo: defineEndpoint({
    method: 'GET',
    path: paths.oauth.consent,
    query: oauthConsentQuerySchema,
    response: { 200: oauthConsentInfoSchema },
    summary: 'The app asking for consent',
    tag: 'MCP',
    auth: 'session',
    errors: { 400: 'The app is not registered, or the redirect address is not one it registered.' },
  }),
  consent: defineEndpoint({
    method: 'POST',
    path: paths.oauth.consent,
    body: oauthConsentSchema,
    response: { 200: oauthConsentResultSchema },
    summary: 'Allow or deny an app access to an organization',
    tag: 'MCP',
    auth: 'session',
    errors: {
      400: 'The authorization request is invalid.',
      403: 'The signed-in user is not a member of the chosen organization.',
    },
  }),
  grants: defineEndpoint({
    method: 'GET',
    path: paths.oauth.grants,
    response: { 200: z.array(oauthGrantSchema) },
    summary: "List the organization's connected apps",
    tag: 'MCP',
    auth: 'session',
  }),
  revokeGrant: defineEndpoint({
    method: 'DELETE',
    path: paths.oauth.revokeGrant,
    params: idParamsSchema,
    summary: 'Revoke a connected app',
    tag: 'MCP',
    auth: 'session',
    errors: { 403: 'Members revoke only the apps they connected.' },
  }),
};
