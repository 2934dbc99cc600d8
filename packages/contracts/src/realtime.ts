import { z } from 'zod';

/** Events published on the server's event bus and delivered to the organization's websocket clients. */
export const realtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent_created'), organizationId: z.string(), agentId: z.string() }),
  z.object({ type: z.literal('agent_updated'), organizationId: z.string(), agentId: z.string() }),
  z.object({ type: z.literal('agent_deleted'), organizationId: z.string(), agentId: z.string() }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
