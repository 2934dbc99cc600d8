import {
  KNOWLEDGE_MAX_TOP_K,
  STEP_RETRIEVAL_EXCERPT_LIMIT,
  STEP_TOOL_RESULT_LIMIT,
  type Agent,
  type NodeOutput,
  type StepMessage,
  type StepRecord,
  type StepRetrieval,
  type StepToolCall,
} from '@crewline/contracts';
import type { AgentCall } from '@crewline/engine';
import { z } from 'zod';
import type { LlmToolTrace, LlmTrace } from './types';

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
 * A knowledge search's answer (tools/runtime/vector-store-tool.ts, createSearchTool), recognised by its
 * shape: any store that answers this way (built-in knowledge base, Pinecone) gets a retrieval record.
 */
const searchAnswer = z.object({
  query: z.string(),
  hits: z.array(
    z.object({
      source: z.string(),
      passage: z.number().optional(),
      score: z.number(),
      text: z.string(),
    }),
  ),
});

/** The longest query a retrieval record keeps; the arguments hold what the model wrote. */
const RETRIEVAL_QUERY_LIMIT = 1000;

/** `text` on one line, cut at the last whole word that fits in `limit` characters with its '…'. */
export function excerpt(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit - 1);
  const lastSpace = cut.lastIndexOf(' ');
  // A single very long word (a URL, a hash) is cut where it is rather than dropped.
  const words = lastSpace > limit / 2 ? cut.slice(0, lastSpace) : cut;
  return `${words.replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * A search's query and hits, each passage's text cut to an excerpt, so the record shows every hit
 * however long the passages were (the result text is cut at STEP_TOOL_RESULT_LIMIT).
 */
function retrievalOf(result: unknown): StepRetrieval | undefined {
  const answer = searchAnswer.safeParse(result);
  if (!answer.success) return undefined;
  return {
    query: excerpt(answer.data.query, RETRIEVAL_QUERY_LIMIT),
    hits: answer.data.hits.slice(0, KNOWLEDGE_MAX_TOP_K).map((hit) => ({
      source: hit.source,
      ...(hit.passage !== undefined ? { passage: hit.passage } : {}),
      score: hit.score,
      excerpt: excerpt(hit.text, STEP_RETRIEVAL_EXCERPT_LIMIT),
    })),
  };
}

/**
 * A tool call as records and the playground show it: the result as text, cut at
 * STEP_TOOL_RESULT_LIMIT, and the arguments cut as long; a knowledge search also as a retrieval.
 */
export function toolCall(trace: LlmToolTrace): StepToolCall {
  const text = resultText(trace.result);
  const truncated = text.length > STEP_TOOL_RESULT_LIMIT;
  const retrieval = trace.isError ? undefined : retrievalOf(trace.result);
  return {
    name: trace.name,
    arguments: argumentsOf(trace.args),
    result: truncated ? text.slice(0, STEP_TOOL_RESULT_LIMIT) : text,
    truncated,
    isError: trace.isError,
    durationMs: Math.round(trace.durationMs),
    ...(retrieval ? { retrieval } : {}),
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
