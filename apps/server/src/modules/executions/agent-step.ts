import type { Agent } from '@crewline/contracts';
import type { AgentAnswer, AgentCall } from '@crewline/engine';
import type { Logger } from 'pino';
import { newLlmTrace, type LlmTool, type LlmUsage } from '../../platform/llm';
import type { RunAgents } from '../agents/agents.service';
import type { MemoryService } from '../memory/memory.service';
import type { EventOutbox } from './event-outbox';
import type { RunLog } from './run-log';
import type { MadeCall } from './step-recorder';
import { createStepStream } from './step-stream';

/** A running step's answer reaches its watchers at most ten times a second (step-stream.ts). */
export const STREAM_INTERVAL_MS = 100;

const addUsage = (a: LlmUsage, b: LlmUsage): LlmUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

/**
 * One agent step of an attempt, the engine's `callAgent` port: what the agent recalls goes after its
 * system prompt (agent memory, modules/memory/step-memory.ts), the model is asked with the agent's
 * tools and its answer streamed to the run's watchers, the tools it used are logged, what it learned
 * is kept (the extraction's tokens count with the step's), and the call as made, with its trace, is
 * handed to the step's record (`made`).
 */
export function createAgentStep(deps: {
  ask: RunAgents['ask'];
  /** The organization's connections as read with the claim (memory embeds with them). */
  connection: RunAgents['connection'];
  memory?: Pick<MemoryService, 'stepMemory'>;
  /** Whether someone watches the run's workflow live: asked at each step, so a builder opened mid-run streams the next ones. */
  watched(): boolean;
  ids: { organizationId: string; executionId: string; workflowId: string };
  outbox: EventOutbox;
  runLog: RunLog;
  made(made: MadeCall): void;
  signal: AbortSignal;
  logger?: Logger;
}) {
  const { ask, ids, outbox, runLog, signal } = deps;
  const memory = deps.memory?.stepMemory({
    organizationId: ids.organizationId,
    executionId: ids.executionId,
    signal,
    connection: deps.connection,
    log: (level, message, nodeId) => runLog.add(level, message, nodeId),
    logger: deps.logger,
  });

  return async function agentStep(call: AgentCall, agent: Agent): Promise<AgentAnswer> {
    const trace = newLlmTrace();
    const remembering = await memory?.recall(agent, call);
    const system = remembering?.system ?? call.system;
    deps.made({ call: { ...call, system }, agent, trace });
    const step = { nodeId: call.step.nodeId, baseNodeId: call.step.baseNodeId };
    const watched = deps.watched();
    const stream = createStepStream({
      intervalMs: STREAM_INTERVAL_MS,
      async publish(update) {
        // The step's started event goes first.
        await outbox.flush();
        await outbox.publish({ type: 'execution_node_delta', ...ids, ...step, ...update });
      },
    });
    const answer = await ask(
      agent,
      { system, user: call.user },
      {
        extraTools: call.tools as Record<string, LlmTool> | undefined,
        signal,
        trace,
        onTextDelta: watched ? stream.push : undefined,
        // The node's schema, else the agent's (the engine chose): the answer comes back parsed as `data`.
        outputSchema: call.outputSchema,
      },
    ).finally(() => stream.close());
    for (const each of answer.steps)
      for (const tool of each.toolResults)
        runLog.add(
          tool.isError ? 'warn' : 'info',
          `${agent.name} used the tool ${tool.name}${tool.isError ? ' (it failed)' : ''}`,
          call.nodeId,
        );
    // The extraction is the step's model call too: its tokens count with the step's.
    const extraction = await remembering?.keep(answer.text, (prompt) =>
      ask(agent, prompt, { signal, withoutTools: true }),
    );
    const usage = extraction ? addUsage(answer.usage, extraction) : answer.usage;
    return {
      content: answer.text,
      usage,
      model: answer.model,
      ...(answer.data !== undefined ? { data: answer.data } : {}),
    };
  };
}
