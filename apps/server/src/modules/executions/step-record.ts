import {
  STEP_TOOL_RESULT_LIMIT,
  type Agent,
  type NodeOutput,
  type StepMessage,
  type StepRecord,
  type StepToolCall,
} from '@crewline/contracts';
import type { AgentCall } from '@crewline/engine';
import type { LlmToolTrace, LlmTrace } from '../../platform/llm';

/** A tool's answer as the inspector shows it: text as is, anything else as indented JSON. */
function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  try {
    return JSON.stringify(result, null, 2) ?? String(result);
  } catch {
    return String(result);
  }
}

/**
 * A call's arguments as the model wrote them, unless they are longer than STEP_TOOL_RESULT_LIMIT as
 * JSON (a file the model asked a tool to write): then the start of that JSON, as text, marked cut.
 */
function argumentsOf(args: unknown): unknown {
  const value = args ?? {};
  let json: string;
  try {
    json = JSON.stringify(value) ?? '';
  } catch {
    return String(value).slice(0, STEP_TOOL_RESULT_LIMIT);
  }
  return json.length > STEP_TOOL_RESULT_LIMIT ? `${json.slice(0, STEP_TOOL_RESULT_LIMIT)}…` : value;
}

/**
 * A tool call as records and the playground show it: the result as text, cut at
 * STEP_TOOL_RESULT_LIMIT, and the arguments cut as long.
 */
export function toolCall(trace: LlmToolTrace): StepToolCall {
  const text = resultText(trace.result);
  const truncated = text.length > STEP_TOOL_RESULT_LIMIT;
  return {
    name: trace.name,
    arguments: argumentsOf(trace.args),
    result: truncated ? text.slice(0, STEP_TOOL_RESULT_LIMIT) : text,
    truncated,
    isError: trace.isError,
    durationMs: Math.round(trace.durationMs),
  };
}

/**
 * What one step's model call was asked and did, as its row stores it: the messages as the gateway
 * sent them (an empty system prompt is not sent), the answer (null when the call failed), each tool
 * call, the retries and the tokens. Tool results were masked by the tool runtime before the model or
 * this record saw them; API keys and connection settings are never part of it.
 */
export function stepRecord(made: {
  call: AgentCall;
  agent: Agent;
  trace: LlmTrace;
  answer: NodeOutput | null;
  /** For a hierarchical lead: the delegations it made that ran as steps of their own. */
  delegations: number;
}): StepRecord {
  const { call, agent, trace, answer } = made;
  const messages: StepMessage[] = [
    ...(call.system.trim() ? [{ role: 'system' as const, content: call.system }] : []),
    { role: 'user', content: call.user },
  ];
  const toolCalls = trace.toolCalls.map(toolCall);
  return {
    agentName: agent.name,
    messages,
    answer: answer?.content ?? null,
    toolCalls,
    retries: trace.retries,
    provider: agent.llmProvider,
    model: answer?.metadata.model || agent.llmModel,
    promptTokens: answer?.usage.promptTokens ?? 0,
    completionTokens: answer?.usage.completionTokens ?? 0,
    ...(call.coworkers
      ? {
          team: {
            coworkers: call.coworkers,
            delegations: made.delegations,
          },
        }
      : {}),
  };
}
