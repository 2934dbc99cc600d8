import {
  guardrailCheckLabels,
  guardrailMessages,
  type Agent,
  type GuardrailCheck,
  type GuardrailFinding,
  type TokenUsage,
} from '@crewline/contracts';
import {
  addUsage,
  evaluateCondition,
  noUsage,
  WorkflowRunError,
  type ExpressionContext,
  type GuardAnswer,
  type GuardCall,
  type StepRef,
} from '@crewline/engine';
import type { LlmTool } from '../../platform/llm';

/** Where there are no guardrails to run an agent's through (tests of steps alone). */
export const noGuard = (): Promise<GuardAnswer> =>
  Promise.reject(new WorkflowRunError('This agent has guardrails, and they cannot run here'));

/** What an agent's custom rules read besides `text`: the run's input, and `run` where there is one. */
export type GuardContext = { input: unknown; run?: ExpressionContext['run'] };

/** How a block names its check: a custom rule by its label, any other check by its kind's name. */
function blockedBy(findings: GuardrailFinding[], checks: GuardrailCheck[]): string {
  const finding = findings.find((f) => f.action === 'block')!;
  const rule = checks.find((c) => c.type === 'rule' && finding.check === 'rule' && c.label?.trim());
  return rule?.type === 'rule' && rule.label ? rule.label.trim() : guardrailCheckLabels[finding.check];
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null));

/** A value whose text was redacted, read back as what it was (an object stays one when it still parses). */
function redacted(value: unknown, text: string): unknown {
  if (typeof value === 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The model's arguments object, as the call's record holds it, made to read as `value` (an object). */
function overwrite(args: unknown, value: unknown) {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  for (const key of Object.keys(args)) delete (args as Record<string, unknown>)[key];
  Object.assign(args, value);
}

/**
 * One agent step's guardrails (docs/product-rules.md, Guardrails): its input checked before the
 * model sees it, its answer before anyone does, and each tool call's arguments before the tool runs
 * and its result before the model reads it, on the agent's own model. A `block` fails the step with
 * 'Blocked by guardrail: <check>' (a tool call's block stops the model's request: `signal` aborts);
 * a `redact` hands on the redacted text. Their classifier calls count in the step's usage. An agent
 * without guardrails costs nothing here.
 */
export function agentGuardrails(deps: {
  guard(call: GuardCall): Promise<GuardAnswer>;
  step: StepRef;
  agent: Pick<Agent, 'guardrails' | 'llmProvider' | 'llmModel'>;
  /** What a custom rule reads besides `text`: the run's state as the step knows it. */
  context: GuardContext;
}) {
  const { guardrails } = deps.agent;
  const listed = (list?: GuardrailCheck[]) => (list ?? []).filter((c) => c.enabled);
  const input = listed(guardrails.input);
  const output = listed(guardrails.output);
  const tools = listed(guardrails.tools);
  const stop = new AbortController();
  let usage: TokenUsage = noUsage;
  let blocked: string | undefined;

  async function check(checks: GuardrailCheck[], text: string): Promise<string> {
    const answer = await deps.guard({
      step: deps.step,
      text,
      checks,
      model: { provider: deps.agent.llmProvider, model: deps.agent.llmModel },
      holds: (when) =>
        evaluateCondition(when, {
          nodes: {},
          vars: {},
          input: deps.context.input,
          run: deps.context.run ?? { id: '', trigger: 'manual', startedAt: new Date().toISOString() },
          text,
        }),
    });
    usage = addUsage(usage, answer.usage);
    if (!answer.passed) {
      blocked = blockedBy(answer.findings, checks);
      stop.abort(new WorkflowRunError(guardrailMessages.blocked(blocked)));
      throw new WorkflowRunError(guardrailMessages.blocked(blocked));
    }
    return answer.text;
  }

  return {
    /** Whether the answer is checked: then it is not streamed to watchers as it comes. */
    checksOutput: output.length > 0,
    /** Aborts when a tool call's guardrail blocked: the request stops there. */
    signal: stop.signal,
    /** The classifier calls' tokens and cost, for the step's usage. */
    usage: () => usage,
    /** The block that stopped the request, as the step's error; undefined when none did. */
    blocked: () => (blocked ? new WorkflowRunError(guardrailMessages.blocked(blocked)) : undefined),
    /** The check that blocked ('PII', a custom rule's label); undefined when none did. */
    blockedBy: () => blocked,
    input: (text: string) => (input.length > 0 ? check(input, text) : Promise.resolve(text)),
    async output<T extends { content: string; data?: unknown }>(answer: T): Promise<T> {
      if (output.length === 0) return answer;
      const content = await check(output, answer.content);
      if (content === answer.content) return answer;
      return {
        ...answer,
        content,
        ...(answer.data !== undefined ? { data: redacted(answer.data, content) } : {}),
      };
    },
    /** The tool with its arguments and result checked (itself when the agent has no tool guardrails). */
    tool(tool: LlmTool): LlmTool {
      if (tools.length === 0) return tool;
      return {
        ...tool,
        async execute(args, options) {
          let checked: unknown;
          try {
            checked = redacted(args, await check(tools, asText(args)));
          } catch (error) {
            // The call's record keeps no blocked value: the arguments read as the block.
            overwrite(args, { blocked: (error as Error).message });
            throw error;
          }
          // The call's record shows the arguments as the tool got them (redacted where redacted).
          overwrite(args, checked);
          const result = await tool.execute(checked, options);
          return redacted(result, await check(tools, asText(result)));
        },
      };
    },
  };
}

/** One agent step's guardrails. */
export type AgentGuards = ReturnType<typeof agentGuardrails>;
