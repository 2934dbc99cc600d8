import { z } from 'zod';
import { microsoftStatusSchema } from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** The organization's Microsoft 365 mailbox: connecting it is an admin's setting. */
export const microsoftEndpoints = {
  status: defineEndpoint({
    method: 'GET',
    path: paths.microsoft.status,
    response: { 200: microsoftStatusSchema },
    summary: 'Microsoft 365 connection status',
    tag: 'Microsoft 365',
    auth: 'session',
  }),
  connect: defineEndpoint({
    method: 'GET',
    path: paths.microsoft.connect,
    response: { 200: z.object({ authUrl: z.string() }) },
    summary: 'Start connecting Microsoft 365',
    tag: 'Microsoft 365',
    auth: 'token',
    role: 'admin',
  }),
  // Public: the browser arrives here from Microsoft, without our token; the page it answers is described by hand.
  callback: defineEndpoint({
    method: 'GET',
    path: paths.microsoft.callback,
    summary: 'Microsoft 365 sign-in callback',
    tag: 'Microsoft 365',
    auth: 'public',
  }),
  disconnect: defineEndpoint({
    method: 'POST',
    path: paths.microsoft.disconnect,
    response: { 200: z.object({ success: z.literal(true) }) },
    summary: 'Disconnect Microsoft 365',
    tag: 'Microsoft 365',
    auth: 'token',
    role: 'admin',
  }),
};
