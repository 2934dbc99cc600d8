import { z } from 'zod';
import { approvalStatusValues } from './approvals';
import { executionWaitSchema } from './executions';

const agentEvent = { organizationId: z.string(), agentId: z.string() };
const executionEvent = { organizationId: z.string(), executionId: z.string(), workflowId: z.string() };
/**
 * A step of a run: `nodeId` is the step's id (a hierarchical delegation's is its node id and `#n`),
 * `baseNodeId` the workflow node it ran, the one a canvas marks.
 */
const stepEvent = { ...executionEvent, nodeId: z.string(), baseNodeId: z.string() };

/**
 * Events published on the server's event bus and delivered to the organization's websocket clients
 * as `{ type, ...fields }`. Payloads are small (ids and deltas); clients refetch what they show.
 */
export const realtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent_created'), ...agentEvent }),
  z.object({ type: z.literal('agent_updated'), ...agentEvent }),
  z.object({ type: z.literal('agent_deleted'), ...agentEvent }),
  /** A run was queued (pending): lets other open pages show it at once. */
  z.object({ type: z.literal('workflow_execution_created'), ...executionEvent }),
  z.object({ type: z.literal('workflow_execution_started'), ...executionEvent }),
  z.object({ type: z.literal('workflow_execution_completed'), ...executionEvent }),
  z.object({ type: z.literal('workflow_execution_failed'), ...executionEvent, error: z.string() }),
  z.object({ type: z.literal('workflow_execution_cancelled'), ...executionEvent }),
  /** The run waits for people or a time, holding no worker; `waiting` says for what. */
  z.object({
    type: z.literal('workflow_execution_waiting'),
    ...executionEvent,
    waiting: executionWaitSchema,
  }),
  /** An approval was requested: inboxes and the run's details refetch. */
  z.object({
    type: z.literal('approval_requested'),
    ...executionEvent,
    approvalId: z.string(),
  }),
  /** An approval was decided, timed out or cancelled (`status`), or someone added their decision. */
  z.object({
    type: z.literal('approval_decided'),
    ...executionEvent,
    approvalId: z.string(),
    status: z.enum(approvalStatusValues),
  }),
  /**
   * A schedule, webhook or email could not start a run of the workflow; `error` is the reason, which
   * the workflow now shows as its last trigger error.
   */
  z.object({
    type: z.literal('workflow_trigger_failed'),
    organizationId: z.string(),
    workflowId: z.string(),
    error: z.string(),
  }),
  /**
   * Microsoft refused to renew the organization's Microsoft 365 tokens: its inbox is no longer read
   * until someone connects again (Settings shows Reconnect).
   */
  z.object({ type: z.literal('microsoft_connection_broken'), organizationId: z.string() }),
  /**
   * Someone joined or left the organization, or a member's role changed: member lists refetch.
   * `userId`: the member whose role changed or who was removed; their own session refetches (the role).
   */
  z.object({
    type: z.literal('organization_members_changed'),
    organizationId: z.string(),
    userId: z.string().optional(),
  }),
  /** The organization's plan, trial or subscription changed: the billing status refetches. */
  z.object({ type: z.literal('subscription_updated'), organizationId: z.string() }),
  /** A knowledge base's document changed status (queued, processing, ready, failed): its lists refetch. */
  z.object({
    type: z.literal('knowledge_document_updated'),
    organizationId: z.string(),
    knowledgeBaseId: z.string(),
    documentId: z.string(),
  }),
  /** Step progress: the builder colours nodes while a run is in progress. */
  /** `agentName`: the step's agent as the run knows it (a run view names a step before it ends). */
  z.object({ type: z.literal('execution_node_started'), ...stepEvent, agentName: z.string().optional() }),
  /** `branch`: the path a condition took (its nodes beyond the other paths are then skipped). */
  z.object({
    type: z.literal('execution_node_completed'),
    ...stepEvent,
    executionTime: z.number(),
    totalTokens: z.number(),
    /** What the step's model calls cost (null: a model had no price; absent: no price table or no model call). */
    costUsd: z.number().nullable().optional(),
    branch: z.string().optional(),
  }),
  /** A step whose path was not taken: it never runs (the graph greys it). */
  z.object({ type: z.literal('execution_node_skipped'), ...stepEvent }),
  /** A started step now waits (an approval, a delay): the run stops here until it resumes. */
  z.object({ type: z.literal('execution_node_waiting'), ...stepEvent }),
  /**
   * A map started on `total` items: its progress is the count of its items' completed events
   * (`nodeId` `map[3]`, `baseNodeId` the map).
   */
  z.object({ type: z.literal('execution_node_items'), ...stepEvent, total: z.number().int() }),
  /**
   * A running step's answer as the model produces it: `text` continues the answer at `offset` (its
   * length so far, in UTF-16 code units). At most ten a second per step, never stored; the step's
   * completed event follows, and the stored answer is the whole of it.
   */
  z.object({
    type: z.literal('execution_node_delta'),
    ...stepEvent,
    offset: z.number().int().min(0),
    text: z.string(),
  }),
  /** A step's agent call failed; `error` is the readable reason (the run then fails with it). */
  z.object({
    type: z.literal('execution_node_failed'),
    ...stepEvent,
    error: z.string(),
  }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
export type RealtimeEventType = RealtimeEvent['type'];

/** Workflows one socket may watch at a time (see the watch message). */
export const MAX_WATCHED_WORKFLOWS = 20;

/** Messages a websocket client sends. A bare "ping" string is accepted too. */
export const realtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), organizationId: z.string() }),
  z.object({ type: z.literal('ping') }),
  /**
   * The workflows whose running steps this socket shows as they are written (a builder, a run's
   * details): their steps' answers are streamed (execution_node_delta) while someone watches. Each
   * message replaces the socket's list for the organization, which it must have subscribed to.
   */
  z.object({
    type: z.literal('watch'),
    organizationId: z.string(),
    workflowIds: z.array(z.string().uuid()).max(MAX_WATCHED_WORKFLOWS),
  }),
]);
export type RealtimeClientMessage = z.infer<typeof realtimeClientMessageSchema>;

/** Every message the server sends: the events, and the answers to a client's messages. */
export const realtimeServerMessageSchema = z.union([
  realtimeEventSchema,
  z.object({ type: z.literal('subscribed'), organizationId: z.string() }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), message: z.string().catch('') }),
]);
export type RealtimeServerMessage = z.infer<typeof realtimeServerMessageSchema>;

export const realtimeMessages = {
  notMember: 'You are not a member of this organization',
  badMessage:
    'Messages must be JSON: {"type":"subscribe","organizationId":"…"}, {"type":"watch","organizationId":"…","workflowIds":["…"]} or {"type":"ping"}',
  unauthorized: 'Sign in to receive live updates',
  notSubscribed: 'Subscribe to the organization before watching its workflows',
} as const;
