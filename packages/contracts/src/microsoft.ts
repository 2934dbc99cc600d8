import { z } from 'zod';

/** GET /api/auth/microsoft/status: whether this server can connect, and the organization's mailbox. */
export const microsoftStatusSchema = z.object({
  connected: z.boolean(),
  /** The server has a Microsoft app registration (client id and secret). */
  configured: z.boolean(),
  /** The connected mailbox. */
  account: z.object({ email: z.string(), name: z.string() }).optional(),
  /** Microsoft refused to renew the sign-in: the organization must connect again. */
  broken: z.boolean().optional(),
});
export type MicrosoftStatus = z.infer<typeof microsoftStatusSchema>;
