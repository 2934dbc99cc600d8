import { z } from 'zod';

/*
 * The audit log (Settings → Audit, owners only): what was done in the organization, by whom, from
 * where. The vocabulary of actions is written once here, with the words the log shows for each.
 */

/** What an audit event records, as stored in `audit_events.action`. */
export const auditActionValues = [
  'auth.signed_in',
  'member.invited',
  'member.role_changed',
  'member.removed',
  'invitation.revoked',
  'invitation.accepted',
  'api_key.created',
  'api_key.revoked',
  'connection.created',
  'connection.updated',
  'connection.deleted',
  'tool.created',
  'tool.updated',
  'tool.deleted',
  'mcp_server.created',
  'mcp_server.updated',
  'mcp_server.deleted',
  'mcp_server.signed_in',
  'mcp_server.signed_out',
  'webhook_secret.generated',
  'webhook_secret.set',
  'webhook_secret.rotated',
  'webhook_secret.removed',
  'billing.plan_changed',
  'billing.subscription_canceled',
  'billing.subscription_resumed',
  'billing.payment_method_changed',
  'publishing.mcp_changed',
  'publishing.chat_changed',
  'workflow.activated',
  'workflow.deactivated',
] as const;
export type AuditAction = (typeof auditActionValues)[number];

/** The words the log shows for each action. */
export const auditActionLabels: Record<AuditAction, string> = {
  'auth.signed_in': 'Signed in',
  'member.invited': 'Invited a member',
  'member.role_changed': 'Changed a role',
  'member.removed': 'Removed a member',
  'invitation.revoked': 'Revoked an invitation',
  'invitation.accepted': 'Accepted an invitation',
  'api_key.created': 'Created an API key',
  'api_key.revoked': 'Revoked an API key',
  'connection.created': 'Added a connection',
  'connection.updated': 'Changed a connection',
  'connection.deleted': 'Removed a connection',
  'tool.created': 'Added a tool with credentials',
  'tool.updated': 'Changed a tool with credentials',
  'tool.deleted': 'Removed a tool with credentials',
  'mcp_server.created': 'Added an MCP server',
  'mcp_server.updated': 'Changed an MCP server',
  'mcp_server.deleted': 'Removed an MCP server',
  'mcp_server.signed_in': 'Signed in to an MCP server',
  'mcp_server.signed_out': 'Signed out of an MCP server',
  'webhook_secret.generated': 'Generated a webhook secret',
  'webhook_secret.set': 'Set a webhook secret',
  'webhook_secret.rotated': 'Rotated a webhook secret',
  'webhook_secret.removed': 'Removed a webhook secret',
  'billing.plan_changed': 'Changed the plan',
  'billing.subscription_canceled': 'Canceled the subscription',
  'billing.subscription_resumed': 'Resumed the subscription',
  'billing.payment_method_changed': 'Changed the payment method',
  'publishing.mcp_changed': 'Changed MCP publishing',
  'publishing.chat_changed': 'Changed the chat app',
  'workflow.activated': 'Activated a workflow',
  'workflow.deactivated': 'Deactivated a workflow',
};

/** What an action was done to, as stored in `audit_events.target_type`. */
export const auditTargetTypeValues = [
  'user',
  'member',
  'invitation',
  'api_key',
  'connection',
  'tool',
  'mcp_server',
  'subscription',
  'workflow',
] as const;
export type AuditTargetType = (typeof auditTargetTypeValues)[number];

/** Events per page of GET /api/audit: by default, and at most. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** The GET /api/audit response header with the next page's `cursor`; absent on the last page. */
export const AUDIT_NEXT_CURSOR_HEADER = 'x-next-cursor';

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Who did it, by their name at the time; null for the system (a payment provider's webhook). */
  actor: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
  action: z.enum(auditActionValues),
  target: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  ip: z.string().nullable(),
  /** What changed: names of fields and non-secret values (never a credential). */
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditMessages = { window: '"from" must be before "to"' } as const;

/** A window whose end is not after its start matches nothing: the log answers 400 instead. */
export const auditWindowIsValid = (filters: { from?: string; to?: string }): boolean =>
  !filters.from || !filters.to || Date.parse(filters.from) < Date.parse(filters.to);

/** The filters of GET /api/audit and GET /api/audit.csv: a window [from, to), an action, an actor. */
export const auditFiltersObject = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  action: z.enum(auditActionValues).optional(),
  actorId: z.uuid().optional(),
});
export const auditFiltersSchema = auditFiltersObject.refine(auditWindowIsValid, {
  message: auditMessages.window,
  path: ['to'],
});
export type AuditFilters = z.infer<typeof auditFiltersObject>;
