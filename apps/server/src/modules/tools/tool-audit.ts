import type { AuditEntry } from '../audit/audit.service';
import type { RequestActor } from '../../platform/request-actor';
import type { ToolRow } from './tools.repository';

/*
 * The audit log's view of tools (docs/product-rules.md, Audit log): an MCP server connection, and
 * a tool that holds (or held) a credential, are recorded when they are added, changed or removed, by
 * the names of what changed, never a value. A tool without credentials is the organization's
 * ordinary content and is not recorded.
 */

type Json = Record<string, unknown>;
type Audited = Pick<ToolRow, 'category' | 'credentials'>;

/** Whether the log records changes to this tool: an MCP server connection, or one with a credential. */
export const isAuditedTool = (tool: Audited): boolean =>
  tool.category === 'mcp' || Object.keys(tool.credentials ?? {}).length > 0;

const described = ['name', 'description', 'category', 'provider', 'isActive'] as const;

/**
 * The names of what differs between two states of a tool: its own fields and its config's and
 * credentials' keys. Credentials are compared sealed, so one typed again counts as changed (as
 * connections count it); one sent back as its mask is kept as it was.
 */
export function changedToolFields(before: Partial<ToolRow> | undefined, after: ToolRow): string[] {
  const differs = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
  const keysOf = (a: Json | null | undefined, b: Json | null | undefined) =>
    [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter((key) =>
      differs(a?.[key], b?.[key]),
    );
  const own = before ? described.filter((field) => differs(before[field], after[field])) : [];
  return [
    ...new Set([
      ...own,
      ...keysOf(before?.config, after.config),
      ...keysOf(before?.credentials, after.credentials),
    ]),
  ].sort();
}

/** The event of a tool added, changed or removed: target and action by its kind (MCP server or tool). */
export function toolEvent(
  row: Pick<ToolRow, 'id' | 'name' | 'organizationId' | 'category'>,
  change: 'created' | 'updated' | 'deleted',
  actor: RequestActor,
  details: Json,
): AuditEntry {
  const mcp = row.category === 'mcp';
  return {
    organizationId: row.organizationId,
    actor,
    action: mcp ? `mcp_server.${change}` : `tool.${change}`,
    target: { type: mcp ? 'mcp_server' : 'tool', id: row.id, name: row.name },
    details,
  };
}

/** An MCP server connection signed in to (its OAuth tokens stored) or out of (forgotten). */
export const mcpSignInEvent = (
  row: Pick<ToolRow, 'id' | 'name' | 'organizationId'>,
  change: 'signed_in' | 'signed_out',
  actor: RequestActor,
): AuditEntry => ({
  organizationId: row.organizationId,
  actor,
  action: `mcp_server.${change}`,
  target: { type: 'mcp_server', id: row.id, name: row.name },
});
