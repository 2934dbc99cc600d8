import { workflowMessages } from '@crewline/contracts';
import type { ToolCall } from '@crewline/engine';
import { NotFoundError } from '../../platform/errors';
import type { ToolRuntime, ToolsService } from '../tools/tools.service';
import type { RunLog } from './run-log';

/**
 * What a run's Tool steps use of the tools module (app.ts hands it over): the organization's tool
 * with its credentials, read when the step runs (one statement; runs without Tool steps read
 * nothing), and the runtime that calls it as it calls an agent's tools.
 */
export type RunTools = {
  tools: Pick<ToolsService, 'resolveOne'>;
  runtime: Pick<ToolRuntime, 'call'>;
};

/**
 * A Tool step that could not do its work (a deleted or inactive tool, arguments that do not fit
 * it, the tool's own failure): its message names the step and is written for the run's error box.
 */
export class ToolStepError extends Error {}

/**
 * One Tool step of an attempt, the engine's `callTool` port: the step's tool, read in the run's
 * organization, called with the arguments its templates gave (checked against the tool's input
 * schema; an MCP connection's, against its server tool's), under the run's abort signal; the call is logged like an agent's use of a tool, and the
 * tool's (masked) result is the step's.
 */
export function createToolStep(deps: {
  run: RunTools;
  organizationId: string;
  runLog: RunLog;
  signal: AbortSignal;
  /** The step's name as people know it (its node's label, else "Tool"). */
  nameOf(baseNodeId: string): string;
}) {
  const { run, organizationId, runLog, signal } = deps;
  /** A cancel (or a lost lease) stops the call: the run ends for that reason, not as the tool's failure. */
  const stopped = (error: unknown) =>
    signal.aborted ? (signal.reason instanceof Error ? signal.reason : error) : undefined;

  return async function toolStep(call: ToolCall): Promise<unknown> {
    const name = deps.nameOf(call.step.baseNodeId);
    let tool: Awaited<ReturnType<RunTools['tools']['resolveOne']>>;
    try {
      tool = await run.tools.resolveOne(organizationId, call.toolId);
    } catch (error) {
      // Another organization's tool is as absent as a deleted one; a database error stays one.
      if (error instanceof NotFoundError) throw new ToolStepError(workflowMessages.deletedTool(name));
      throw error;
    }
    try {
      // An MCP connection's step names the server's tool to call (`data.mcpTool`).
      const result = await run.runtime.call(organizationId, tool, call.arguments, {
        signal,
        mcpTool: call.mcpTool,
      });
      runLog.add('info', `${name} called the tool ${tool.name}`, call.step.nodeId);
      return result;
    } catch (error) {
      const cause = stopped(error);
      if (cause) throw cause;
      runLog.add('warn', `${name} called the tool ${tool.name} (it failed)`, call.step.nodeId);
      const message = error instanceof Error ? error.message : String(error);
      // The message only: the runtime masked it, and an error's cause may quote what it masked.
      throw new ToolStepError(`Tool "${name}" failed: ${message}`);
    }
  };
}
