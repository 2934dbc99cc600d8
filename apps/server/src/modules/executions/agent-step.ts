import { budgetMessages, usdText, type Agent, type TokenUsage } from '@crewline/contracts';
import { BudgetExceededError } from '../../platform/errors';
import {
  addUsage,
  noUsage,
  type AgentAnswer,
  type AgentCall,
  type GuardAnswer,
  type GuardCall,
} from '@crewline/engine';
import type { Logger } from 'pino';
import {
  newLlmTrace,
  type LlmRequest,
  type LlmResult,
  type LlmSpendHooks,
  type LlmTool,
  type LlmUsage,
} from '../../platform/llm';
import type { RunAgents } from '../agents/agents.service';
import type { PriceLookup } from '../costs/prices.columns';
import type { RunSpend } from '../costs/run-budgets.service';
import type { MemoryService } from '../memory/memory.service';
import type { EventOutbox } from './event-outbox';
import type { RunLog } from './run-log';
import { Interrupted } from './run-errors';
import type { RunWaits } from './run-waits';
import type { MadeCall } from './step-recorder';
import { createStepStream } from './step-stream';
import { meteredUsage } from './metered-usage';
import { agentGuardrails, noGuard, type AgentGuards, type GuardContext } from './agent-guardrails';
import { modelCall } from '../../platform/telemetry/tracing';

/** Why a call needing approval is refused where the run cannot wait (a workflow a map or loop runs). */
const cannotWait =
  "this call needs a person's approval, and a workflow run by a map or a loop cannot wait for one";

/** What a run waiting to have its budget raised asks its owners and admins. */
function budgetRequest(agentName: string, { spentUsd, capUsd }: { spentUsd: number; capUsd: number }) {
  return {
    title: "Raise this run's budget?",
    message: `This run has spent ${usdText(spentUsd)} of its ${usdText(capUsd)} budget, and ${agentName}'s next call could pass it. Approve to let it go on (give a new budget, or leave it empty to double it); reject to stop the run.`,
  };
}

/** A running step's answer reaches its watchers at most ten times a second (step-stream.ts). */
export const STREAM_INTERVAL_MS = 100;

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
  /** The price of a model call, as read with the claim: each call's cost is kept with its step. */
  priceOf?: PriceLookup;
  /** The run's budgets (modules/costs); none when nothing caps the run. */
  runSpend?: RunSpend;
  /** Whether the run's calls to a provider go through the server's key (the plan's included spend counts them). */
  serverKey?: (provider: Agent['llmProvider']) => boolean;
  memory?: Pick<MemoryService, 'stepMemory'>;
  /** The run is untrusted (started from outside the organization): its agents recall, but learn nothing. */
  untrusted?: boolean;
  /** Whether someone watches the run's workflow live: asked at each step, so a builder opened mid-run streams the next ones. */
  watched(): boolean;
  ids: { organizationId: string; executionId: string; workflowId: string };
  outbox: EventOutbox;
  runLog: RunLog;
  made(made: MadeCall): void;
  signal: AbortSignal;
  logger?: Logger;
  /**
   * The run's waits (run-waits.ts): a tool call that needs approval stores the run waiting and the
   * step goes on from its conversation once decided. Without them (a workflow a map or loop runs)
   * such a call is refused to the model, since nothing can wait there.
   */
  /** The run's guardrails (guard-step.ts): an agent's own are checked through them. */
  guard?: (call: GuardCall) => Promise<GuardAnswer>;
  /** What an agent's custom guardrail rules read besides `text`: the run's input and `run`. */
  guardContext?: GuardContext;
  waits?: Pick<
    RunWaits,
    'toolCallWaitedFor' | 'keepToolResult' | 'toolCall' | 'toolCallAgain' | 'budgetWaitedFor' | 'budget'
  >;
}) {
  const { ask, ids, outbox, runLog, signal } = deps;
  const memory = deps.memory?.stepMemory({
    organizationId: ids.organizationId,
    executionId: ids.executionId,
    untrusted: deps.untrusted ?? false,
    signal,
    connection: deps.connection,
    log: (level, message, nodeId) => runLog.add(level, message, nodeId),
    logger: deps.logger,
  });

  /**
   * Where a step that waited for a tool call's approval goes on: its conversation and the decision
   * (a refusal tells the model why; an approved call runs once, its result kept as soon as it ran).
   */
  async function goOnFrom(call: AgentCall) {
    const approval = await deps.waits?.toolCallWaitedFor(call.step.nodeId);
    const stored = approval?.toolCall;
    if (!approval || !stored) return undefined;
    if (approval.status === 'pending') return deps.waits!.toolCallAgain(call.step, approval);
    if (approval.status === 'cancelled') throw new Interrupted('cancelled');
    const approved = approval.status === 'approved';
    const comment = approval.decisions.find((d) => d.decision === 'reject')?.comment;
    runLog.add(
      approved ? 'info' : 'warn',
      `${stored.tool}: ${approved ? 'approved' : 'refused'}${comment ? ` (${comment})` : ''}`,
      call.nodeId,
    );
    const resume: LlmRequest['resume'] = {
      pending: {
        approvalId: stored.sdkApprovalId,
        toolCallId: stored.toolCallId,
        toolName: stored.modelToolName,
        toolLabel: stored.tool,
        args: stored.arguments,
        reasoning: stored.reasoning,
        messages: stored.messages,
      },
      approved,
      ...(approved
        ? {}
        : { reason: comment ? `A person refused this call: ${comment}` : 'A person refused this call.' }),
      ...(stored.result ? { result: stored.result } : {}),
      onResult: (result) => deps.waits!.keepToolResult(approval.id, result),
    };
    return { resume, usage: stored.usage };
  }

  /**
   * The budget approval the run waited for at this step, if it did: approved, the run's budget is
   * what the approver set (twice the old one when they left it empty); refused, the run fails; still
   * pending (woken early), it waits again.
   */
  async function raisedBudget(call: AgentCall) {
    const approval = deps.runSpend?.asksApproval
      ? await deps.waits?.budgetWaitedFor(call.step.nodeId)
      : undefined;
    if (!approval) return;
    if (approval.status === 'pending') await deps.waits!.budget(call.step, approval, approval);
    if (approval.status === 'cancelled') throw new Interrupted('cancelled');
    const { spentUsd, capUsd } = deps.runSpend!.spent();
    const decision = approval.decisions.find(
      (d) => d.decision === (approval.status === 'approved' ? 'approve' : 'reject'),
    );
    if (approval.status !== 'approved') {
      const refused = `${budgetMessages.run(spentUsd, capUsd)}; ${decision?.userName ?? 'a person'} did not raise it`;
      throw new BudgetExceededError(refused, 'run', spentUsd, capUsd);
    }
    const asked = decision?.fields.budgetUsd;
    const raised = typeof asked === 'number' && asked > 0 ? asked : capUsd * 2;
    deps.runSpend!.raise(raised);
    runLog.add(
      'info',
      `${decision?.userName ?? 'A person'} raised this run's budget to ${usdText(raised)}`,
      call.nodeId,
    );
  }

  return async function agentStep(call: AgentCall, agent: Agent): Promise<AgentAnswer> {
    const guards = agentGuardrails({
      guard: deps.guard ?? noGuard,
      step: call.step,
      agent,
      context: deps.guardContext ?? { input: null },
    });
    const used: { usage: TokenUsage } = { usage: noUsage };
    try {
      return await answerOf(call, agent, guards, used);
    } catch (error) {
      // A node with a Blocked path answers a block (the run goes on along it); its model calls so far
      // and its classifier calls stay metered with the step. Without that path the step fails.
      const blocked = guards.blocked();
      if (!call.routesBlocks || !blocked) throw error;
      runLog.add(
        'warn',
        `${agent.name}: ${blocked.message}; the run goes on along its Blocked path`,
        call.nodeId,
      );
      return {
        content: blocked.message,
        usage: addUsage(used.usage, guards.usage()),
        model: agent.llmModel,
        blockedBy: guards.blockedBy(),
      };
    }
  };

  /** One agent step's answer through its guardrails; `used` follows its model calls' usage as they are made. */
  async function answerOf(
    call: AgentCall,
    agent: Agent,
    guards: AgentGuards,
    used: { usage: TokenUsage },
  ): Promise<AgentAnswer> {
    const trace = newLlmTrace();
    // A tool call a guardrail blocked stops the request: the step fails for that reason.
    // Each request is a model-call span under the step's (platform/telemetry), priced as the step prices it.
    const asked: typeof ask = (...args) =>
      modelCall(
        { provider: agent.llmProvider, model: agent.llmModel, prompt: args[1] },
        () => ask(...args),
        (answer) => metered(answer).costUsd,
      ).catch((error: unknown) => {
        throw guards.blocked() ?? error;
      });
    // The model is asked what the input guardrails let through (redacted where they redact).
    const user = await guards.input(call.user);
    const remembering = await memory?.recall(agent, { ...call, user });
    const system = remembering?.system ?? call.system;
    deps.made({ call: { ...call, system, user }, agent, trace });
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
    // A step that stopped for a tool call's approval goes on from there, with the tokens spent before.
    const prior = await goOnFrom(call);
    const options = {
      extraTools: call.tools as Record<string, LlmTool> | undefined,
      signal: deps.guard ? AbortSignal.any([signal, guards.signal]) : signal,
      trace,
      // An answer its guardrails check is shown once checked, never as it comes.
      onTextDelta: watched && !guards.checksOutput ? stream.push : undefined,
      guardTool: guards.tool,
      // The node's schema, else the agent's (the engine chose): the answer comes back parsed as `data`.
      outputSchema: call.outputSchema,
      approvals: { untrusted: deps.untrusted ?? false },
    };
    // A result's steps are its model calls (a tool loop makes several); the extraction is one.
    const metered = (result: { usage: LlmUsage; model?: string; steps?: unknown[] }) =>
      meteredUsage(
        result.usage,
        Math.max(1, result.steps?.length ?? 1),
        result.model ?? agent.llmModel,
        deps.priceOf,
        agent.llmProvider,
      );
    /**
     * One request of the agent's model under the run's budgets (each call checked before it is made).
     * A run whose budget asks for approval, refused at its step's first request (nothing of the step
     * has run), waits for an owner or admin to raise it, and the step runs from the start once they have.
     */
    const budgeted = async (work: (spend?: LlmSpendHooks) => Promise<LlmResult>, firstOfStep = false) => {
      const { runSpend } = deps;
      const provider = agent.llmProvider;
      const hooks = await runSpend?.hooks(
        provider,
        agent.llmModel,
        deps.serverKey?.(provider) ?? false,
        firstOfStep,
      );
      try {
        return await work(hooks);
      } catch (error) {
        if (
          error instanceof BudgetExceededError &&
          error.scope === 'run' &&
          firstOfStep &&
          runSpend?.asksApproval &&
          deps.waits
        )
          return deps.waits.budget(call.step, budgetRequest(agent.name, runSpend.spent()));
        throw error;
      } finally {
        await hooks?.finish();
      }
    };
    await raisedBudget(call);
    let answer = await budgeted(
      (spend) => asked(agent, { system, user }, { ...options, spend, resume: prior?.resume }),
      !prior,
    ).finally(() => stream.close());
    // The calls before a wait for approval were metered then, at the prices of that attempt.
    let spent = prior ? addUsage(prior.usage, metered(answer)) : metered(answer);
    used.usage = spent;
    while (answer.pendingApproval) {
      const pending = answer.pendingApproval;
      if (deps.waits) await deps.waits.toolCall(call.step, { pending, usage: spent, agentName: agent.name });
      runLog.add(
        'warn',
        `${agent.name}'s call of ${pending.toolLabel} was refused: ${cannotWait}`,
        call.nodeId,
      );
      answer = await budgeted((spend) =>
        asked(
          agent,
          { system, user },
          {
            ...options,
            spend,
            onTextDelta: undefined,
            resume: { pending, approved: false, reason: cannotWait },
          },
        ),
      );
      spent = addUsage(spent, metered(answer));
      used.usage = spent;
    }
    for (const each of answer.steps)
      for (const tool of each.toolResults)
        runLog.add(
          tool.isError ? 'warn' : 'info',
          `${agent.name} used the tool ${tool.name}${tool.isError ? ' (it failed)' : ''}`,
          call.nodeId,
        );
    // The output guardrails see the answer before anyone (memory included) does.
    const checked = await guards.output({
      content: answer.text,
      ...(answer.data !== undefined ? { data: answer.data } : {}),
    });
    // The extraction is the step's model call too: its tokens count with the step's.
    const extraction = await remembering?.keep(checked.content, (prompt) =>
      budgeted((spend) => ask(agent, prompt, { signal, spend, withoutTools: true })),
    );
    const usage = addUsage(
      extraction ? addUsage(spent, metered({ usage: extraction })) : spent,
      guards.usage(),
    );
    return { ...checked, usage, model: answer.model };
  }
}
