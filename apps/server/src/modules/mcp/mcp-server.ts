import {
  CLIENT_INFO_META_KEY,
  fromJsonSchema,
  McpServer,
  type CallToolResult,
  type JsonSchemaType,
  type jsonSchemaValidator,
  type McpRequestContext,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MCP_GET_RUN_TOOL, type Execution } from '@crewline/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../platform/errors';
import type { ExecutionsService } from '../executions/executions.service';
import type { PublishedTool, PublishedToolsPresenter } from './published-tools.presenter';

/** Who calls, as the /mcp route verified it (an organization API key or an OAuth access token) and hands it to the factory. */
export type McpCaller = { organizationId: string; userId: string; apiKeyId?: string };

/** The server's name as clients show it. */
const SERVER_INFO = { name: 'crewline', version: '1.0.0' };

const GET_RUN_DESCRIPTION =
  'The state of a run a tool of this server started, with its result (or error) once it ended. ' +
  'Call it with the runId a tool answered when its run outlasted the tool’s time limit.';

const getRunSchema: JsonSchemaType = {
  type: 'object',
  properties: { runId: { type: 'string', description: 'The id of the run, as a tool answered it.' } },
  required: ['runId'],
  additionalProperties: false,
};

const RUN_NOT_FOUND = 'Run not found';
const NOT_STARTED = 'The run could not be started. Try again later.';
/** The longest client name kept as a run's trigger detail. */
const CLIENT_NAME_MAX = 100;

/** A tool answer in words the model reads. */
const text = (value: string, structured?: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(structured ? { structuredContent: structured } : {}),
  ...(isError ? { isError: true } : {}),
});

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A run's result as text: a string as it is, anything else as JSON. */
const resultText = (result: unknown) =>
  typeof result === 'string' ? result : JSON.stringify(result ?? null);

/** What a published tool answers for its run: the result when it ended, else where it stands. */
function runAnswer(run: Execution): CallToolResult {
  if (run.status === 'completed') {
    return text(resultText(run.result), isPlainObject(run.result) ? run.result : undefined);
  }
  if (run.status === 'failed') return text(run.error ?? 'The run failed.', undefined, true);
  if (run.status === 'cancelled') return text('The run was cancelled.', undefined, true);
  return text(
    `The run ${run.id} is still ${run.status}. Call ${MCP_GET_RUN_TOOL} with {"runId": "${run.id}"} for its result.`,
    { runId: run.id, status: run.status },
  );
}

/** What get_run answers: the run's state, and its result or error once it ended. */
function runState(run: Execution): CallToolResult {
  const state: Record<string, unknown> = { runId: run.id, status: run.status };
  if (run.status === 'completed') state.result = run.result;
  if (run.status === 'failed' || run.status === 'cancelled') state.error = run.error;
  return text(JSON.stringify(state), state);
}

/**
 * The MCP client's name (its `clientInfo.name`): on a 2026-07-28 request the per-request `_meta`
 * envelope carries it; a 2025-era client names itself only in its `initialize` request, which a
 * stateless server does not see again, so its runs have none.
 */
function clientName(ctx: ServerContext): string | null {
  const info = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY];
  const name = isPlainObject(info) && typeof info.name === 'string' ? info.name.trim() : '';
  return name ? name.slice(0, CLIENT_NAME_MAX) : null;
}

/** How often a waiting call tells a client that asked for progress that its run goes on. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * While a call waits for its run: progress notifications every PROGRESS_EVERY_MS when the request
 * carries a progress token, so a client that resets its timeout on progress (the SDK's default
 * request timeout is 60 s, the tools' default time limit too) keeps waiting. Returns the stop.
 */
function reportProgress(ctx: ServerContext, runId: string): () => void {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return () => undefined;
  let progress = 0;
  const timer = setInterval(() => {
    progress++;
    ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken, progress, message: `The run ${runId} is still going` },
      })
      .catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  return () => clearInterval(timer);
}

/**
 * The SDK's JSON Schema checks run on the project's Ajv (platform/json-schema.ts): patterns on RE2,
 * so a published schema cannot stall the server (docs/security.md), and errors named by field.
 */
async function projectValidator(): Promise<jsonSchemaValidator> {
  const { schemaValidator, fieldOf } = await import('../../platform/json-schema');
  return {
    getValidator<T>(schema: JsonSchemaType) {
      const validate = schemaValidator(schema as Record<string, unknown>);
      return (input: unknown) => {
        if (validate(input)) return { valid: true as const, data: input as T, errorMessage: undefined };
        const problems = (validate.errors ?? []).slice(0, 3).map((error) => {
          const field = fieldOf(error.instancePath);
          return `${field ? `"${field}"` : 'the arguments'} ${error.message ?? 'do not follow the schema'}`;
        });
        return {
          valid: false as const,
          data: undefined,
          errorMessage: problems.join('; ') || 'the arguments do not follow the schema',
        };
      };
    },
  };
}

/**
 * The factory of the organization's MCP server (docs/product-rules.md, MCP: the organization's
 * server): called by the SDK's handler once per HTTP request, it builds a fresh McpServer for the
 * caller's organization with its published tools of active workflows and the built-in get_run.
 * Nothing outlives the request: any API process answers any request.
 */
export function createMcpServerFactory(deps: {
  tools: Pick<PublishedToolsPresenter, 'list'>;
  executions: Pick<ExecutionsService, 'startRun' | 'get' | 'waitForEnd'>;
  logger?: Logger;
}) {
  let validator: Promise<jsonSchemaValidator> | undefined;

  /** A call of a published tool: a run of its workflow, answered when it ends within the tool's time. */
  async function callWorkflow(
    caller: McpCaller,
    tool: PublishedTool,
    args: unknown,
    ctx: ServerContext,
  ): Promise<CallToolResult> {
    const { organizationId } = caller;
    let started: Execution;
    try {
      started = await deps.executions.startRun({
        organizationId,
        workflowId: tool.workflowId,
        trigger: 'mcp',
        triggerDetail: clientName(ctx),
        triggeredBy: null,
        input: isPlainObject(args) ? args : {},
      });
    } catch (error) {
      // A plan limit or a budget (402), a workflow no longer runnable (409): the model reads why.
      if (error instanceof AppError) return text(error.message, undefined, true);
      deps.logger?.error({ err: error, workflowId: tool.workflowId }, 'an MCP call could not start its run');
      return text(NOT_STARTED, undefined, true);
    }
    const read = () => deps.executions.get(organizationId, started.id);
    const stopProgress = reportProgress(ctx, started.id);
    try {
      const ended = await deps.executions.waitForEnd(organizationId, started.id, {
        timeoutMs: tool.timeoutSeconds * 1000,
        signal: ctx.mcpReq.signal,
      });
      return runAnswer(ended ?? (await read()));
    } finally {
      stopProgress();
    }
  }

  async function getRun(caller: McpCaller, args: unknown): Promise<CallToolResult> {
    const runId = isPlainObject(args) && typeof args.runId === 'string' ? args.runId : '';
    try {
      return runState(await deps.executions.get(caller.organizationId, runId));
    } catch (error) {
      // Another organization's run is not found, like a run that never was.
      if (error instanceof AppError && error.statusCode === 404) return text(RUN_NOT_FOUND, undefined, true);
      throw error;
    }
  }

  return async function mcpServerFor({ authInfo }: McpRequestContext): Promise<McpServer> {
    const caller = authInfo?.extra?.caller as McpCaller | undefined;
    // The route never serves a request without a verified key; without one there is nothing to offer.
    if (!caller) throw new Error('MCP request without a verified caller');
    const [tools, check] = await Promise.all([
      deps.tools.list(caller.organizationId),
      (validator ??= projectValidator()),
    ]);
    const server = new McpServer(SERVER_INFO);
    for (const tool of tools) {
      if (!tool.active || tool.toolName === MCP_GET_RUN_TOOL) continue;
      let inputSchema;
      try {
        inputSchema = fromJsonSchema(tool.inputSchema as JsonSchemaType, check);
      } catch (error) {
        // Checked when it was published; one that no longer compiles is left out, not the whole list.
        deps.logger?.warn(
          { err: error, workflowId: tool.workflowId },
          'a published input schema does not compile',
        );
        continue;
      }
      server.registerTool(tool.toolName, { description: tool.description, inputSchema }, (args, ctx) =>
        callWorkflow(caller, tool, args, ctx),
      );
    }
    server.registerTool(
      MCP_GET_RUN_TOOL,
      {
        description: GET_RUN_DESCRIPTION,
        inputSchema: fromJsonSchema(getRunSchema, check),
        annotations: { readOnlyHint: true },
      },
      (args) => getRun(caller, args),
    );
    return server;
  };
}
