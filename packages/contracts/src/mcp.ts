// The Model Context Protocol both ways (docs/product-rules.md, MCP): the tools of a remote MCP server
// an organization connects (a tool of the `mcp` category), and the workflows it publishes on its own
// MCP endpoint (`POST /mcp`).
import { z } from 'zod';
import { chatPublishingInputSchema, chatPublishingSchema } from './chat';

/** One tool of a connected MCP server, as its `tools/list` described it. */
export const mcpToolInfoSchema = z.object({
  /** The server's own name of the tool (what `tools/call` takes). */
  name: z.string(),
  title: z.string().nullable(),
  description: z.string(),
  /** JSON Schema of its arguments. */
  inputSchema: z.record(z.string(), z.unknown()),
  /** The server's hints (`readOnlyHint`, `destructiveHint`): untrusted, they only pick which calls ask first. */
  readOnly: z.boolean(),
  destructive: z.boolean(),
});
export type McpToolInfo = z.infer<typeof mcpToolInfoSchema>;

/**
 * How an MCP connection authenticates: `none`, `header` (a bearer token or custom header, sealed), or
 * `oauth` (OAuth 2.1 with PKCE: an admin signs in once in the browser, refresh tokens keep it working).
 */
export const mcpAuthValues = ['none', 'header', 'oauth'] as const;
export type McpAuth = (typeof mcpAuthValues)[number];
/**
 * An OAuth connection's state: signed in (`connected`), never signed in (`disconnected`), or its
 * authorization server refused a refresh (`reconnect`: an admin clicks Reconnect).
 */
export const mcpOauthStatusValues = ['connected', 'reconnect', 'disconnected'] as const;
export type McpOauthStatus = (typeof mcpOauthStatusValues)[number];

/** GET /api/tools/:id/mcp-tools and POST /api/tools/:id/mcp-refresh: the server's tools as last listed. */
export const mcpToolListSchema = z.object({
  tools: z.array(mcpToolInfoSchema),
  /** When the list was read from the server; null before the first time. */
  listedAt: z.string().nullable(),
  /** Why the last attempt to list failed, in words a user reads; null when it worked. */
  error: z.string().nullable(),
  /** An OAuth connection's state (absent or null for other connections). */
  oauth: z.enum(mcpOauthStatusValues).nullable().optional(),
});
export type McpToolList = z.infer<typeof mcpToolListSchema>;

/** The default and the bounds of the time an MCP call (either way) may take. */
export const MCP_DEFAULT_TIMEOUT_SECONDS = 60;
export const MCP_MAX_TIMEOUT_SECONDS = 600;
/** The largest result of an MCP tool call that reaches the model (larger ones are refused with a message). */
export const MCP_MAX_RESULT_BYTES = 1024 * 1024;

/**
 * Which of an MCP connection's tools an agent gets: its link's `config.tools` (names), or every tool
 * the connection allows when the link names none.
 */
export const mcpLinkToolsSchema = z.array(z.string().min(1).max(200)).max(500);

/** A published tool's name as MCP clients and their models accept it. */
const publishedToolName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, {
    message: 'Tool name: 1 to 64 letters, digits, "_" or "-"',
  });

/** A JSON Schema for a published tool's input: an object schema (the run's `input` is an object). */
const objectSchema = z
  .record(z.string(), z.unknown())
  .refine((schema) => schema.type === 'object', { message: 'The input schema must be of "type": "object"' });

export const mcpPublishingSchema = z.object({
  enabled: z.boolean(),
  toolName: publishedToolName,
  description: z.string().trim().min(1, { message: 'Description is required' }).max(2000),
  inputSchema: objectSchema,
  timeoutSeconds: z.number().int().min(1).max(MCP_MAX_TIMEOUT_SECONDS).default(MCP_DEFAULT_TIMEOUT_SECONDS),
});
export type McpPublishing = z.infer<typeof mcpPublishingSchema>;

/**
 * GET/PUT /api/workflows/:id/publishing: where a workflow is published. One resource for every
 * surface (the MCP server, a chat app); `null` is not published there. A PUT changes the surfaces it
 * names and leaves the others as they are.
 */
export const workflowPublishingSchema = z.object({
  mcp: mcpPublishingSchema.nullable(),
  chat: chatPublishingSchema.nullable(),
});
export type WorkflowPublishing = z.infer<typeof workflowPublishingSchema>;
export const updateWorkflowPublishingSchema = z.object({
  mcp: mcpPublishingSchema.nullable().optional(),
  chat: chatPublishingInputSchema.nullable().optional(),
});
export type UpdateWorkflowPublishing = z.input<typeof updateWorkflowPublishingSchema>;

/** GET /api/mcp-server: the organization's MCP endpoint and what it offers. */
export const mcpServerSchema = z.object({
  /** The endpoint's URL (`<public URL>/mcp`); the caller's credential says which organization. */
  url: z.string(),
  tools: z.array(
    z.object({
      workflowId: z.string(),
      workflowName: z.string(),
      toolName: z.string(),
      description: z.string(),
      /** Offered to clients only while the workflow is active. */
      active: z.boolean(),
    }),
  ),
});
export type McpServerInfo = z.infer<typeof mcpServerSchema>;

/** The built-in tool of every organization's MCP server that answers a run's state and result. */
export const MCP_GET_RUN_TOOL = 'get_run';

export const mcpMessages = {
  reconnect: (name: string) =>
    `The MCP server "${name}" needs signing in again: an admin opens Settings → Tools → MCP servers and clicks Reconnect.`,
  notOauth: 'This MCP server connection does not use OAuth',
  toolNameTaken: (name: string) =>
    `Another workflow is already published as "${name}": choose another tool name.`,
  notActive: 'Only an active workflow can be published: activate it first.',
  plainHttp:
    "Use an https:// URL. A plain http:// URL is allowed only for a host on the server's egress allow-list.",
  notMcp: 'This tool is not an MCP server connection',
};
