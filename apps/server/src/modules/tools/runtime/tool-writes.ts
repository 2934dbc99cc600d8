import type { ToolApprovalPolicy } from '@crewline/contracts';

/** What the tool says of itself: an MCP server's tool marked read-only (a hint, untrusted, so only ever a reason to ask less). */
export type ToolHints = { readOnly?: boolean };

/**
 * Whether a call of a tool of this category, with these arguments, changes something outside the
 * run (docs/product-rules.md, People in the loop): an HTTP method other than GET and HEAD, a custom
 * webhook (always a POST), an email sent, a file written, appended to or deleted, an MCP server's tool
 * not marked read-only. Database tools run read-only statements only, and model, search and vector
 * tools read.
 */
function callWrites(category: string, args: unknown, hints: ToolHints): boolean {
  const given = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  switch (category) {
    case 'api':
    case 'web': {
      const method = typeof given.method === 'string' ? given.method.toUpperCase() : 'GET';
      return method !== 'GET' && method !== 'HEAD';
    }
    case 'custom':
    case 'communication':
      return true;
    case 'file':
      return given.operation === 'write' || given.operation === 'append' || given.operation === 'delete';
    case 'mcp':
      return hints.readOnly !== true;
    default:
      return false;
  }
}

/**
 * Which calls of a linked tool wait for approval, by the link's policy; in an untrusted run every
 * call that writes does, whatever the link says. Undefined: none.
 */
export function approvalRule(
  category: string,
  policy: ToolApprovalPolicy,
  untrusted: boolean,
  hints: ToolHints = {},
): ((args: unknown) => boolean) | undefined {
  if (policy === 'always') return () => true;
  if (policy === 'writes' || untrusted) return (args) => callWrites(category, args, hints);
  return undefined;
}
