import type { JSONSchema7, StepResult, ToolSet } from 'ai';
import { LlmCallError, LlmConfigurationError, toLlmCallError } from './errors';
import { fetchModelIds } from './list-models';
import type { LlmConnection, LlmRequest, LlmResult, LlmStep, LlmTool, LlmTrace } from './types';

export type LlmGatewayOptions = {
  /** Outbound HTTP; the egress module's fetch is plugged in here. */
  fetch?: typeof globalThis.fetch;
  /** For the whole call, tool loop included. Default 60 s. */
  timeoutMs?: number;
  /** Per model call, on 408/409/429/5xx and network errors, with the SDK's exponential backoff. Default 2. */
  maxRetries?: number;
  /** For listing models, which backs a form and must fail fast to the built-in list. Default 10 s. */
  listTimeoutMs?: number;
  now?: () => number;
};

export type LlmGateway = {
  generate(request: LlmRequest): Promise<LlmResult>;
  listModels(connection: LlmConnection): Promise<string[]>;
};

const DEFAULT_MAX_STEPS = 5;

/**
 * The AI SDK and its providers, loaded on the first model call rather than at start-up: a process
 * that never calls a model (an API process, an idle server) does without their memory.
 */
const loadSdk = () => Promise.all([import('ai'), import('./language-model')]);
type Sdk = Awaited<ReturnType<typeof loadSdk>>[0];

// OpenAI's rule for function names; Anthropic's is the same set.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function createLlmGateway(options: LlmGatewayOptions = {}): LlmGateway {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 2;
  const listTimeoutMs = options.listTimeoutMs ?? 10_000;
  const now = options.now ?? Date.now;
  const fetch = options.fetch ?? globalThis.fetch;

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
    const model = createLanguageModel(
      request.connection,
      request.model,
      trace ? counted(fetch, trace) : fetch,
    );
    const maxSteps = Math.max(1, Math.floor(request.maxSteps ?? DEFAULT_MAX_STEPS));
    const { signal, timedOut } = deadline(timeoutMs, request.signal);
    const tools =
      request.tools && Object.keys(request.tools).length > 0
        ? toToolSet(sdk, request.tools, trace, now)
        : undefined;

    try {
      const result = await sdk.generateText({
        model,
        instructions: request.system.trim() ? request.system : undefined,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: Math.min(100, Math.max(0, request.temperaturePercent)) / 100,
        maxOutputTokens: request.maxTokens,
        tools,
        stopWhen: sdk.isStepCount(maxSteps),
        maxRetries,
        abortSignal: signal,
      });
      // The whole tool loop's usage (finalStep.usage would be the last model call's alone).
      const usage = result.usage;
      const promptTokens = usage.inputTokens ?? 0;
      const completionTokens = usage.outputTokens ?? 0;
      // Every failed request of a call that succeeded was retried.
      if (trace) trace.retries = trace.failedRequests;
      return {
        text: result.text,
        usage: {
          promptTokens,
          completionTokens,
          totalTokens: usage.totalTokens ?? promptTokens + completionTokens,
        },
        steps: result.steps.map(toStep),
        model: result.finalStep.response.modelId || request.model,
        finishReason: result.finishReason,
        durationMs: now() - started,
      };
    } catch (error) {
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

  return { generate, listModels };
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

/** A tool that records each of its calls (arguments, answer or error, duration) into the trace. */
function traced(name: string, tool: LlmTool, trace: LlmTrace, now: () => number): LlmTool['execute'] {
  return async (args, options) => {
    const started = now();
    const record = (result: unknown, isError: boolean) =>
      trace.toolCalls.push({ name, args, result, isError, durationMs: Math.max(0, now() - started) });
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

function toToolSet(
  sdk: Sdk,
  tools: Record<string, LlmTool>,
  trace: LlmTrace | undefined,
  now: () => number,
): ToolSet {
  const set: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    if (!TOOL_NAME.test(name)) {
      throw new LlmConfigurationError(
        `The tool name "${name}" cannot be sent to a model: use up to 64 letters, digits, "_" or "-".`,
      );
    }
    const execute: LlmTool['execute'] = trace
      ? traced(name, definition, trace, now)
      : (args, options) => definition.execute(args, options);
    set[name] = sdk.tool({
      description: definition.description,
      inputSchema: sdk.jsonSchema(asObjectSchema(definition.inputSchema)),
      execute: (args, { abortSignal }) => execute(args, { signal: abortSignal }),
    });
  }
  return set;
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
