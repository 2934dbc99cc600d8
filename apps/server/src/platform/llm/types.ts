import type { JSONSchema7 } from 'ai';

import type { LlmProvider, SpendSource } from '@crewline/contracts';

export type { LlmProvider };

/**
 * Where and how to reach a provider; resolved by the caller (see resolveConnection). `serverKey`:
 * the key is the server's own (OPENAI_API_KEY, …), whose use the plan's included spend caps.
 */
export type LlmConnection = { provider: LlmProvider; apiKey?: string; baseUrl?: string; serverKey?: true };

/**
 * Whom a call outside a run's steps is charged to, and why (modules/costs keeps it in the spend
 * ledger). A run's step carries none: the run writes its cost with the step.
 */
export type LlmMeter = {
  organizationId: string;
  source: SpendSource;
  agentId?: string | null;
  workflowId?: string | null;
  executionId?: string | null;
};

export type LlmMessage = { role: 'user' | 'assistant'; content: string };

export type LlmTool = {
  description: string;
  /** JSON Schema of the arguments; an object schema (`type: 'object'` is assumed when missing). */
  inputSchema: JSONSchema7;
  /** The signal aborts with the call (timeout or the caller's signal); `toolCallId` is the model's id of the call. */
  execute(args: unknown, options?: { signal?: AbortSignal; toolCallId?: string }): Promise<unknown>;
  /**
   * Whether a call with these arguments waits for a person's approval before it runs: the call then
   * ends with `pendingApproval` instead of running it (docs/product-rules.md, People in the loop).
   */
  needsApproval?(args: unknown): boolean;
  /** The tool's name as people know it (the model's name is made to fit the providers' rules). */
  label?: string;
};

/**
 * A call that stopped for an approval, or goes on after one: the conversation so far as the SDK
 * wrote it (model messages, ending with the call and its approval request), and which request.
 */
export type LlmPendingApproval = {
  /** The SDK's id of the approval request (the continuation answers it). */
  approvalId: string;
  toolCallId: string;
  /** The model's name of the tool, the tool's name as people know it, and the arguments it gave. */
  toolName: string;
  toolLabel: string;
  args: unknown;
  /** What the model said before asking for the call. */
  reasoning: string;
  messages: unknown[];
};

export type LlmRequest = {
  connection: LlmConnection;
  model: string;
  /** The agent's 0-100 setting; sent as temperature / 100, so 70 becomes 0.7. */
  temperaturePercent: number;
  maxTokens: number;
  system: string;
  messages: LlmMessage[];
  tools?: Record<string, LlmTool>;
  /** Upper bound on model calls in the tool loop; default 5. */
  maxSteps?: number;
  signal?: AbortSignal;
  /**
   * Streams the call: each piece of the answer as the model produces it. Without it the answer comes
   * whole (one response to parse, the cheaper call when nobody watches).
   */
  onTextDelta?: (text: string) => void;
  /** Each tool call as it finishes, as the trace records it (the playground shows them as they come). */
  onToolCall?: (call: LlmToolTrace) => void;
  /** Filled in as the call goes, so what happened is known even when the call fails (step records). */
  trace?: LlmTrace;
  /**
   * Goes on after an approval: the conversation the call stopped with, and the decision. Approved,
   * the call runs (once: `result`, when given, is its result kept from a run of it before, and is
   * answered instead of running it again) and the model goes on; refused, the model is told why.
   */
  resume?: {
    pending: LlmPendingApproval;
    approved: boolean;
    reason?: string;
    result?: { value: unknown };
    /** The approved call ran: its result, to keep before the model goes on. */
    onResult?(result: unknown): Promise<void>;
  };
  /**
   * The JSON Schema (of an object) the answer must follow: the model is asked for that shape with
   * the provider's structured output, the answer is checked against it, one that does not follow it
   * is asked for again once with the problem, and the parsed answer is the result's `data`.
   */
  outputSchema?: JSONSchema7;
  /** Charged to an organization outside a run's steps (see LlmMeter). */
  meter?: LlmMeter;
  /** Told before and after each model call of the request (budgets, modules/costs). */
  spend?: LlmSpendHooks;
};

/**
 * What a request tells its budgets (modules/costs): before each model call of its tool loop, the
 * most that call can use (its input as sent, at most three characters a token, and the output
 * limit); `beforeCall` refuses the call by throwing, which ends the request with that error as
 * thrown. After each call, its usage as the provider reported it.
 */
export type LlmSpendHooks = {
  beforeCall(worstCase: { inputTokens: number; outputTokens: number }): Promise<void>;
  afterCall(usage: LlmUsage): Promise<void>;
};

/** One tool call as the gateway ran it. */
export type LlmToolTrace = {
  name: string;
  args: unknown;
  result: unknown;
  isError: boolean;
  durationMs: number;
};

/** What a call did along the way: its tool calls in order, and the model requests it sent. */
export type LlmTrace = {
  toolCalls: LlmToolTrace[];
  /** HTTP requests to the model, retries included. */
  requests: number;
  /** Those that failed (an error status or a network error). */
  failedRequests: number;
  /** Requests repeated after a failure: set when the call ends. */
  retries: number;
  /** Times the model was asked again because its answer did not follow the output schema (0 or 1). */
  outputRetries: number;
};

export const newLlmTrace = (): LlmTrace => ({
  toolCalls: [],
  requests: 0,
  failedRequests: 0,
  retries: 0,
  outputRetries: 0,
});

export type LlmUsage = {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of the prompt tokens, those the provider served from its prompt cache (priced lower), when it said. */
  cachedInputTokens?: number;
};

export type LlmStep = {
  toolCalls: { name: string; args: unknown }[];
  /**
   * A tool that threw is reported with `isError` and its message as the result; the model is sent the
   * same message after the error's name ("Error: …").
   */
  toolResults: { name: string; result: unknown; isError?: boolean }[];
};

export type LlmResult = {
  text: string;
  /** Summed over all steps. */
  usage: LlmUsage;
  steps: LlmStep[];
  /** The model id the provider reports having used (falls back to the requested one). */
  model: string;
  finishReason: string;
  durationMs: number;
  /** The answer parsed, when the request had an output schema (it follows the schema). */
  data?: unknown;
  /** The call stopped because a tool call needs a person's approval (`text` is what came before). */
  pendingApproval?: LlmPendingApproval;
};

/** Texts to embed, in order; the gateway sends them in batches and answers in the same order. */
export type LlmEmbedRequest = {
  connection: LlmConnection;
  model: string;
  texts: string[];
  /** The vectors' length, for models that can shorten theirs (text-embedding-3-*). */
  dimensions?: number;
  signal?: AbortSignal;
  /** Charged to an organization (see LlmMeter). */
  meter?: LlmMeter;
};

export type LlmEmbedResult = {
  /** One per text, in the texts' order. */
  embeddings: number[][];
  /** Input tokens as the provider counted them (0 when it does not say). */
  tokens: number;
};
