import { z } from 'zod';

const agentEvent = { organizationId: z.string(), agentId: z.string() };
const executionEvent = { organizationId: z.string(), executionId: z.string(), workflowId: z.string() };

/**
 * Events published on the server's event bus and delivered to the organization's websocket clients
 * as `{ type, ...fields }`. Payloads are small (ids and deltas); clients refetch what they show.
 */
export const realtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent_created'), ...agentEvent }),
  z.object({ type: z.literal('agent_updated'), ...agentEvent }),
  z.object({ type: z.literal('agent_deleted'), ...agentEvent }),
  /** A run was queued (pending). Beyond the spec: lets other open pages show it at once. */
  z.object({ type: z.literal('workflow_execution_created'), ...executionEvent }),
  z.object({ type: z.literal('workflow_execution_started'), ...executionEvent }),
  z.object({ type: z.literal('workflow_execution_completed'), ...executionEvent }),
  z.object({ type: z.literal('workflow_execution_failed'), ...executionEvent, error: z.string() }),
  z.object({ type: z.literal('workflow_execution_cancelled'), ...executionEvent }),
  /** Node-level progress (beyond the spec): the builder colours nodes while a run is in progress. */
  z.object({ type: z.literal('execution_node_started'), ...executionEvent, nodeId: z.string() }),
  z.object({
    type: z.literal('execution_node_completed'),
    ...executionEvent,
    nodeId: z.string(),
    executionTime: z.number(),
    totalTokens: z.number(),
  }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
export type RealtimeEventType = RealtimeEvent['type'];

/** Messages a websocket client sends. A bare "ping" string is accepted too. */
export const realtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), organizationId: z.string() }),
  z.object({ type: z.literal('ping') }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

/** Messages the server sends besides events. */
export type RealtimeServerMessage =
  | RealtimeEvent
  | { type: 'subscribed'; organizationId: string }
  | { type: 'pong' }
  | { type: 'error'; message: string };

export const realtimeMessages = {
  notMember: 'You are not a member of this organization',
  badMessage: 'Messages must be JSON: {"type":"subscribe","organizationId":"…"} or {"type":"ping"}',
  unauthorized: 'Sign in to receive live updates',
} as const;
