import type { JSONSchema7, ModelMessage, StepResult, ToolSet } from 'ai';
import { LlmCallError, LlmConfigurationError, toLlmCallError } from './errors';
import { fetchModelIds } from './list-models';
import { fetchModeration, type ModerationScores } from './moderation';
import { PROVIDER_INFO } from './providers';
import { toolCall } from '../telemetry/tracing';
import type {
  LlmConnection,
  LlmPendingApproval,
  LlmEmbedRequest,
  LlmEmbedResult,
  LlmRequest,
  LlmResult,
  LlmStep,
  LlmTool,
  LlmToolTrace,
  LlmTrace,
  LlmUsage,
} from './types';

export type LlmGatewayOptions = {
  /** Outbound HTTP; the egress module's fetch is plugged in here. */
  fetch?: typeof globalThis.fetch;
  /** For the whole call, tool loop included; for embeddings, per batch. Default 60 s. */
  timeoutMs?: number;
  /** Per model call, on 408/409/429/5xx and network errors, with the SDK's exponential backoff. Default 2. */
  maxRetries?: number;
  /** For listing models, which backs a form and must fail fast to the built-in list. Default 10 s. */
  listTimeoutMs?: number;
  now?: () => number;
  /** Texts per embeddings request. Default 64. */
  embedBatchSize?: number;
  /** Embeddings requests in flight at once for one call. Default 4. */
  embedConcurrency?: number;
};

export type LlmGateway = {
  generate(request: LlmRequest): Promise<LlmResult>;
  listModels(connection: LlmConnection): Promise<string[]>;
  /** Embeds texts with the connection's embedding model; Anthropic has none (LlmConfigurationError). */
  embed(request: LlmEmbedRequest): Promise<LlmEmbedResult>;
  /** OpenAI's moderation endpoint: each category's score for `input` (an OpenAI connection only). */
  moderate(request: {
    connection: LlmConnection;
    input: string;
    signal?: AbortSignal;
  }): Promise<ModerationScores>;
};

const DEFAULT_MAX_STEPS = 5;

/**
 * The AI SDK and its providers, loaded on the first model call rather than at start-up: a process
 * that never calls a model (an API process, an idle server) does without their memory. The promise is
 * kept, so later calls do not resolve the two modules again (a dynamic import costs a lookup each).
 */
const importSdk = () => Promise.all([import('ai'), import('./language-model')]);
let sdkLoading: ReturnType<typeof importSdk> | undefined;
const loadSdk = () => (sdkLoading ??= importSdk());
type Sdk = Awaited<ReturnType<typeof loadSdk>>[0];

// OpenAI's rule for function names; Anthropic's is the same set.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function createLlmGateway(options: LlmGatewayOptions = {}): LlmGateway {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 2;
  const listTimeoutMs = options.listTimeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const fetch = options.fetch ?? globalThis.fetch;
  const embedBatchSize = Math.max(1, Math.floor(options.embedBatchSize ?? 64));
  const embedConcurrency = Math.max(1, Math.floor(options.embedConcurrency ?? 4));

  /** Our timeout and the caller's signal as one; `timedOut` tells the two apart afterwards. */
  function deadline(ms: number, signal?: AbortSignal) {
    const timeout = AbortSignal.timeout(ms);
    return {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      timedOut: () => timeout.aborted && !signal?.aborted,
    };
  }

  async function generate(request: LlmRequest): Promise<LlmResult> {
    const [sdk, { createLanguageModel }] = await loadSdk();
    const started = now();
    const trace = request.trace;
    const structured = request.outputSchema
      ? await structuredOutput(sdk, request.connection, request.outputSchema)
      : undefined;
    const model = createLanguageModel(
      request.connection,
      request.model,
      trace ? counted(fetch, trace) : fetch,
    );
    const maxSteps = Math.max(1, Math.floor(request.maxSteps ?? DEFAULT_MAX_STEPS));
    const { signal, timedOut } = deadline(timeoutMs, request.signal);
    const tools =
      request.tools && Object.keys(request.tools).length > 0
        ? toToolSet(
            sdk,
            request.tools,
            { trace, onToolCall: request.onToolCall, resume: request.resume },
            now,
          )
        : undefined;
    // Calls that may stop for an approval keep the conversation, to go on from it later.
    const approvals = !!request.resume || Object.values(request.tools ?? {}).some((t) => t.needsApproval);

    const messages: ModelMessage[] = request.resume
      ? [...(request.resume.pending.messages as ModelMessage[]), approvalAnswer(request.resume)]
      : request.messages.map((m) => ({ role: m.role, content: m.content }));
    // A budget's refusal ends the request as it was thrown, not as a provider's error.
    let refusal: { error: unknown } | undefined;
    const hooks = request.spend;
    const options = {
      model,
      instructions: request.system.trim() ? request.system : undefined,
      temperature: Math.min(100, Math.max(0, request.temperaturePercent)) / 100,
      maxOutputTokens: request.maxTokens,
      tools,
      stopWhen: sdk.isStepCount(maxSteps),
      maxRetries,
      abortSignal: signal,
      output: structured?.output,
      providerOptions: structured?.providerOptions,
      ...(hooks && {
        prepareStep: async ({ messages: sent }: { messages: ModelMessage[] }) => {
          try {
            await hooks.beforeCall({
              inputTokens: worstCaseTokens(request.system, sent, request.tools),
              outputTokens: request.maxTokens,
            });
          } catch (error) {
            refusal = { error };
            throw error;
          }
          return undefined;
        },
        onStepEnd: (step: { usage: SdkUsage }) => hooks.afterCall(usageOf(step.usage)),
      }),
    };
    const call = (messages: ModelMessage[]) => {
      const each = { ...options, messages };
      // The answer as output and the messages to ask again with are read only with a schema: the
      // SDK builds them on demand, and a call without one has no use for them.
      return request.onTextDelta
        ? streamed(sdk, each, request.onTextDelta, signal, {
            output: !!structured,
            messages: !!structured || approvals,
          })
        : sdk.generateText(each).then((result) => ({
            text: result.text,
            usage: result.usage,
            steps: result.steps,
            finalStep: result.finalStep,
            finishReason: result.finishReason,
            responseMessages: structured || approvals ? result.responseMessages : [],
            answer: structured ? answerText(result) : result.text,
          }));
    };
    try {
      let result = await call(messages);
      let usage = usageOf(result.usage);
      const steps = result.steps.map(toStep);
      let data: unknown;
      const pending = approvals ? pendingApproval(result, messages, request.tools ?? {}) : undefined;
      if (pending) {
        if (trace) trace.retries = trace.failedRequests;
        return {
          text: result.text,
          usage,
          steps,
          model: result.finalStep.response.modelId || request.model,
          finishReason: result.finishReason,
          durationMs: now() - started,
          pendingApproval: pending,
        };
      }
      if (structured) {
        let check = structured.check(result.answer);
        if (!check.ok) {
          // Asked once more, with what was wrong, after the answer and any tool calls it made.
          const firstProblem = check.problem;
          if (trace) trace.outputRetries++;
          result = await call([
            ...messages,
            ...result.responseMessages,
            { role: 'user', content: retryPrompt(firstProblem, request.outputSchema!) },
          ]);
          usage = addUsage(usage, usageOf(result.usage));
          steps.push(...result.steps.map(toStep));
          check = structured.check(result.answer);
          if (!check.ok) {
            if (trace) trace.retries = trace.failedRequests;
            throw new OutputMismatchError(
              `${PROVIDER_INFO[request.connection.provider].name}'s answer did not follow the output schema, even when asked again: ${check.problem}` +
                (check.problem === firstProblem ? '' : ` (the first answer: ${firstProblem})`),
              request.connection.provider,
            );
          }
        }
        data = check.data;
      }
      // Every failed request of a call that succeeded was retried.
      if (trace) trace.retries = trace.failedRequests;
      return {
        // With a schema, the JSON the data was read from (Anthropic's JSON tool answers no text).
        text: structured ? result.answer : result.text,
        usage,
        steps,
        model: result.finalStep.response.modelId || request.model,
        finishReason: result.finishReason,
        durationMs: now() - started,
        ...(structured ? { data } : {}),
      };
    } catch (error) {
      if (error instanceof OutputMismatchError) throw error;
      if (refusal) throw refusal.error;
      // The last failed request ended the call; the ones before it were retried.
      if (trace) trace.retries = Math.max(0, trace.failedRequests - 1);
      throw toLlmCallError(error, request.connection, { timedOut: timedOut(), timeoutMs }, sdk);
    }
  }

  async function listModels(connection: LlmConnection): Promise<string[]> {
    const { signal, timedOut } = deadline(listTimeoutMs);
    try {
      return await fetchModelIds(connection, { fetch, signal });
    } catch (error) {
      if (error instanceof LlmConfigurationError || error instanceof LlmCallError) throw error;
      throw toLlmCallError(error, connection, { timedOut: timedOut(), timeoutMs: listTimeoutMs });
    }
  }

  /**
   * Batches of `embedBatchSize` texts, a few at a time, each through embedMany with its own deadline
   * and retries (a large document makes hundreds of requests: one slow batch must not fail them all
   * for want of time). The first batch that fails stops the others and is the error reported.
   */
  async function embed(request: LlmEmbedRequest): Promise<LlmEmbedResult> {
    const [sdk, { createEmbeddingModel }] = await Promise.all([import('ai'), import('./embedding-model')]);
    const model = createEmbeddingModel(request.connection, request.model, fetch);
    const texts = request.texts;
    if (texts.length === 0) return { embeddings: [], tokens: 0 };

    const embeddings = new Array<number[]>(texts.length);
    let tokens = 0;
    let next = 0;
    const failed = new AbortController();
    const stop = request.signal ? AbortSignal.any([request.signal, failed.signal]) : failed.signal;

    async function worker() {
      while (next < texts.length && !stop.aborted) {
        const start = next;
        next += embedBatchSize;
        const values = texts.slice(start, start + embedBatchSize);
        const { signal, timedOut } = deadline(timeoutMs, stop);
        try {
          const result = await sdk.embedMany({
            model,
            values,
            dimensions: request.dimensions,
            maxRetries,
            abortSignal: signal,
          });
          result.embeddings.forEach((vector, i) => (embeddings[start + i] = vector));
          // Ollama and some compatible servers report no usage (NaN in the SDK).
          if (Number.isFinite(result.usage.tokens)) tokens += result.usage.tokens;
        } catch (error) {
          throw toLlmCallError(error, request.connection, { timedOut: timedOut(), timeoutMs }, sdk);
        }
      }
      // The caller gave up between two batches.
      if (request.signal?.aborted && !failed.signal.aborted) {
        throw toLlmCallError(request.signal.reason, request.connection, { timedOut: false, timeoutMs }, sdk);
      }
    }

    const workers = Math.min(embedConcurrency, Math.ceil(texts.length / embedBatchSize));
    await Promise.all(
      Array.from({ length: workers }, () =>
        worker().catch((error: unknown) => {
          failed.abort();
          throw error;
        }),
      ),
    );
    return { embeddings, tokens };
  }

  async function moderate(request: { connection: LlmConnection; input: string; signal?: AbortSignal }) {
    const { signal, timedOut } = deadline(timeoutMs, request.signal);
    try {
      return await fetchModeration(request.connection, request.input, { fetch, signal });
    } catch (error) {
      if (error instanceof LlmConfigurationError || error instanceof LlmCallError) throw error;
      throw toLlmCallError(error, request.connection, { timedOut: timedOut(), timeoutMs });
    }
  }

  return { generate, listModels, embed, moderate };
}

type GenerateOptions = Parameters<Sdk['generateText']>[0] & Parameters<Sdk['streamText']>[0];

/**
 * The most tokens a call's input can be: its text as sent, at one token for every three characters
 * at least (tokenizers average about four for English; fewer for code and other scripts).
 */
function worstCaseTokens(system: string, messages: ModelMessage[], tools: LlmRequest['tools']): number {
  const described = Object.entries(tools ?? {}).reduce(
    (chars, [name, tool]) => chars + name.length + JSON.stringify(tool).length,
    0,
  );
  return Math.ceil((system.length + JSON.stringify(messages).length + described) / 3);
}

/** Token counts as the AI SDK reports them (a count a provider did not give is undefined). */
type SdkUsage = {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cachedInputTokens?: number;
};

/** The whole tool loop's usage (finalStep.usage would be the last model call's alone). */
function usageOf(usage: SdkUsage): LlmUsage {
  const promptTokens = usage.inputTokens ?? 0;
  const completionTokens = usage.outputTokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage.totalTokens ?? promptTokens + completionTokens,
    ...(usage.cachedInputTokens ? { cachedInputTokens: usage.cachedInputTokens } : {}),
  };
}

const addUsage = (a: LlmUsage, b: LlmUsage): LlmUsage => {
  const cached = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(cached ? { cachedInputTokens: cached } : {}),
  };
};

/** The second mismatch of a structured answer: its trace is already final. */
class OutputMismatchError extends LlmCallError {
  constructor(message: string, provider: LlmConnection['provider']) {
    super(message, provider, 'invalid-response');
  }
}

/** What the model is told when its answer did not follow the schema. */
function retryPrompt(problem: string, schema: JSONSchema7) {
  return (
    `Your answer does not follow the JSON Schema it must follow: ${problem}. ` +
    `Answer again with only the JSON object, following this schema exactly: ${JSON.stringify(schema)}`
  );
}

/**
 * The text the structured output was read from: the SDK's own choice (for Anthropic's JSON tool,
 * that tool's input), which the output below hands back as text; the answer's text when the loop
 * ended without one (at maxSteps, mid tool call).
 */
function answerText(result: { output: unknown; text: string }): string {
  try {
    return typeof result.output === 'string' ? result.output : result.text;
  } catch {
    return result.text;
  }
}

/**
 * The request's structured output: the SDK's Output.object with the schema (so each provider is
 * asked its own way: OpenAI's and compatible servers' `response_format`, Anthropic's
 * `output_config.format` or its JSON tool), its answer handed back as text and checked here with
 * Ajv (output-schema.ts), so a mismatch is an answer to retry rather than an error that loses the
 * call's usage. OpenAI's protocol asks for a strict schema: one with optional fields is sent
 * rewritten (strictSchema), and one that cannot be strict (an open object) is sent as not strict.
 */
async function structuredOutput(sdk: Sdk, connection: LlmConnection, schema: JSONSchema7) {
  const { checkAnswer, outputSchemaProblem, strictSchema } = await import('./output-schema');
  const problem = outputSchemaProblem(schema);
  if (problem) throw new LlmConfigurationError(`The output schema ${problem}.`);
  const original = schema as Record<string, unknown>;
  const openAiProtocol = connection.provider !== 'anthropic';
  const strict = openAiProtocol ? strictSchema(original) : null;
  const sent = strict ?? schema;
  const object = sdk.Output.object({ schema: sdk.jsonSchema(sent) });
  return {
    output: { ...object, parseCompleteOutput: async ({ text }: { text: string }) => text },
    providerOptions:
      openAiProtocol && !strict
        ? { openai: { strictJsonSchema: false }, openaiCompatible: { strictJsonSchema: false } }
        : undefined,
    check: (text: string) => checkAnswer(original, text, { strict: strict !== null }),
  };
}

/**
 * The same call as generateText, streamed: each piece of answer text goes to `onTextDelta` as the
 * model produces it (the final step's and those before a tool call alike), and the result is read
 * once the stream has ended. A provider error in the stream is thrown, as generateText would.
 */
async function streamed(
  sdk: Sdk,
  options: GenerateOptions,
  onTextDelta: (text: string) => void,
  signal: AbortSignal,
  /**
   * What else to read: with an output schema, the answer as output (to check); with it or with tools
   * that may stop for an approval, the response's messages (to ask again, or to go on from later).
   */
  read: { output: boolean; messages: boolean },
) {
  // The SDK's default onError prints the error, with the provider's response body, to the console:
  // the error part of the stream is handled below instead.
  const result = sdk.streamText({ ...options, onError: () => undefined });
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      if (part.text) onTextDelta(part.text);
    } else if (part.type === 'error') {
      throw part.error;
    }
  }
  signal.throwIfAborted();
  const [text, usage, steps, finalStep, finishReason, responseMessages, output] = await Promise.all([
    result.text,
    result.usage,
    result.steps,
    result.finalStep,
    result.finishReason,
    read.messages ? result.responseMessages : [],
    // No output when the loop ended mid tool call (see answerText).
    read.output ? Promise.resolve(result.output).catch(() => undefined) : undefined,
  ]);
  return {
    text,
    usage,
    steps,
    finalStep,
    finishReason,
    responseMessages,
    answer: typeof output === 'string' ? output : text,
  };
}

/** The provider's fetch, counting the model requests (and failed ones) of one call into its trace. */
function counted(fetch: typeof globalThis.fetch, trace: LlmTrace): typeof globalThis.fetch {
  return async (input, init) => {
    trace.requests++;
    try {
      const response = await fetch(input, init);
      if (!response.ok) trace.failedRequests++;
      return response;
    } catch (error) {
      trace.failedRequests++;
      throw error;
    }
  };
}

/** Who hears of each tool call as it finishes: the call's trace, its `onToolCall`, or both. */
type ToolWatch = {
  trace?: LlmTrace;
  onToolCall?: (call: LlmToolTrace) => void;
  /** A call going on after an approval: its approved call runs once (resume.result when it ran already). */
  resume?: LlmRequest['resume'];
};

/** The tool message that answers the approval request the conversation stopped on. */
function approvalAnswer(resume: NonNullable<LlmRequest['resume']>): ModelMessage {
  return {
    role: 'tool',
    content: [
      {
        type: 'tool-approval-response',
        approvalId: resume.pending.approvalId,
        approved: resume.approved,
        ...(resume.reason ? { reason: resume.reason } : {}),
      },
    ],
  };
}

/**
 * The approval request a call stopped on, with the conversation to go on from: the first one of its
 * last step (a model asks for calls one step at a time; a second request in the same step is
 * answered, refused, with the first's continuation: see refuseOthers).
 */
function pendingApproval(
  result: { finalStep: StepResult<ToolSet>; text: string; responseMessages: unknown[] },
  sent: ModelMessage[],
  tools: Record<string, LlmTool>,
): LlmPendingApproval | undefined {
  const requests = result.finalStep.content.filter((part) => part.type === 'tool-approval-request');
  const first = requests[0];
  if (!first) return undefined;
  const messages: unknown[] = [...sent, ...result.responseMessages];
  if (requests.length > 1) messages.push(refuseOthers(requests.slice(1).map((r) => r.approvalId)));
  return {
    approvalId: first.approvalId,
    toolCallId: first.toolCall.toolCallId,
    toolName: first.toolCall.toolName,
    toolLabel: tools[first.toolCall.toolName]?.label ?? first.toolCall.toolName,
    args: first.toolCall.input,
    reasoning: result.text,
    messages,
  };
}

/** The model asked for several approvals at once: one waits, the others are refused with why. */
function refuseOthers(approvalIds: string[]): ModelMessage {
  return {
    role: 'tool',
    content: approvalIds.map((approvalId) => ({
      type: 'tool-approval-response' as const,
      approvalId,
      approved: false,
      reason: 'Only one call that needs approval is asked at a time: ask for this one again afterwards.',
    })),
  };
}

/** A tool that records each of its calls (arguments, answer or error, duration) into the trace. */
function traced(name: string, tool: LlmTool, watch: ToolWatch, now: () => number): LlmTool['execute'] {
  return async (args, options) => {
    const started = now();
    const record = (result: unknown, isError: boolean) => {
      const call = { name, args, result, isError, durationMs: Math.max(0, now() - started) };
      watch.trace?.toolCalls.push(call);
      watch.onToolCall?.(call);
    };
    try {
      const result = await tool.execute(args, options);
      record(result, false);
      return result;
    } catch (error) {
      record(error instanceof Error ? error.message : String(error), true);
      throw error;
    }
  };
}

function toToolSet(sdk: Sdk, tools: Record<string, LlmTool>, watch: ToolWatch, now: () => number): ToolSet {
  const set: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    if (!TOOL_NAME.test(name)) {
      throw new LlmConfigurationError(
        `The tool name "${name}" cannot be sent to a model: use up to 64 letters, digits, "_" or "-".`,
      );
    }
    const execute: LlmTool['execute'] =
      watch.trace || watch.onToolCall
        ? traced(name, once(definition, watch.resume), watch, now)
        : once(definition, watch.resume).execute;
    const needsApproval = definition.needsApproval;
    set[name] = sdk.tool({
      description: definition.description,
      inputSchema: sdk.jsonSchema(asObjectSchema(definition.inputSchema)),
      execute: (args, { abortSignal, toolCallId }) =>
        toolCall(name, toolCallId, () => execute(args, { signal: abortSignal, toolCallId })),
      ...(needsApproval ? { needsApproval: (args: unknown) => needsApproval(args) } : {}),
    });
  }
  return set;
}

/**
 * The tool, running the call approved in `resume` exactly once: a result kept from a run of it
 * before is answered instead, and a new result is handed to `onResult` (kept) before the model sees it.
 */
function once(tool: LlmTool, resume: LlmRequest['resume']): LlmTool {
  if (!resume?.approved) return tool;
  const { toolCallId } = resume.pending;
  return {
    ...tool,
    async execute(args, options) {
      if (options?.toolCallId !== toolCallId) return tool.execute(args, options);
      if (resume.result) return resume.result.value;
      const result = await tool.execute(args, options);
      await resume.onResult?.(result);
      return result;
    },
  };
}

/** Providers reject function parameters that are not an object schema; `{}` means "no arguments". */
function asObjectSchema(schema: JSONSchema7 | undefined): JSONSchema7 {
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  if (schema.type) return schema;
  return { type: 'object', properties: {}, ...schema };
}

function toStep(step: StepResult<ToolSet>): LlmStep {
  const toolCalls: LlmStep['toolCalls'] = [];
  const toolResults: LlmStep['toolResults'] = [];
  for (const part of step.content) {
    if (part.type === 'tool-call') toolCalls.push({ name: part.toolName, args: part.input });
    else if (part.type === 'tool-result') toolResults.push({ name: part.toolName, result: part.output });
    else if (part.type === 'tool-error') {
      const message = part.error instanceof Error ? part.error.message : String(part.error);
      toolResults.push({ name: part.toolName, result: message, isError: true });
    }
  }
  return { toolCalls, toolResults };
}
