import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/*
 * The facade the call sites use (docs/architecture.md, "Operating: traces"): one span per HTTP
 * request, run attempt, step, model call and tool call. With traces off (no OTEL_EXPORTER_OTLP_
 * ENDPOINT) every function here is a check of one variable and a direct call: this module imports
 * @opentelemetry/api only as types, and start-tracing.ts loads the API and the SDK, by a dynamic
 * import, only when traces are on.
 */

/** The OpenTelemetry API as start-tracing.ts loaded it, its tracer, and what spans may carry. */
type TracingState = {
  api: typeof OtelApi;
  tracer: Tracer;
  captureContent: boolean;
};

let state: TracingState | undefined;

/** start-tracing.ts turns the facade on (and off again, for tests, with undefined). */
export function setTracingState(next: TracingState | undefined) {
  state = next;
}

/** Runs `work` with `span` as the current span, ending it when `work` settles (an error marks it). */
async function within<T>(
  s: TracingState,
  span: Span,
  parent: Context,
  work: () => Promise<T>,
  onResult?: (result: T) => void,
): Promise<T> {
  try {
    const result = await s.api.context.with(s.api.trace.setSpan(parent, span), work);
    onResult?.(result);
    return result;
  } catch (error) {
    // The error's type only: messages may quote a provider's answer or a tool's arguments.
    span.setStatus({ code: s.api.SpanStatusCode.ERROR });
    span.setAttribute('error.type', error instanceof Error ? error.constructor.name : typeof error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The W3C traceparent of the current span (the request starting a run), kept on the run so its
 * worker's span continues the same trace; undefined when traces are off or no span is current.
 */
export function currentTraceParent(): string | undefined {
  if (!state) return undefined;
  const carrier: Record<string, string> = {};
  state.api.propagation.inject(state.api.context.active(), carrier);
  return carrier.traceparent;
}

/** What a run attempt's span tells (no input, output or names: those are the organization's). */
type RunOfSpan = {
  id: string;
  workflowId: string;
  organizationId: string;
  attempt: number;
  trigger: string;
  traceParent?: string | null;
};

/**
 * A run attempt as a span: a child of the request that started the run (its stored traceparent),
 * whichever process claimed it; a run nobody's request started (a schedule) begins a trace.
 */
export function inRun<T>(run: RunOfSpan, work: () => Promise<T>): Promise<T> {
  const s = state;
  if (!s) return work();
  const { api } = s;
  const parent = run.traceParent
    ? api.propagation.extract(api.ROOT_CONTEXT, { traceparent: run.traceParent })
    : api.ROOT_CONTEXT;
  const span = s.tracer.startSpan(
    'workflow run',
    {
      kind: api.SpanKind.CONSUMER,
      attributes: {
        'crewline.execution.id': run.id,
        'crewline.workflow.id': run.workflowId,
        'crewline.organization.id': run.organizationId,
        'crewline.run.attempt': run.attempt,
        'crewline.run.trigger': run.trigger,
      },
    },
    parent,
  );
  return within(s, span, parent, work);
}

/** A step as the engine names it (its StepRef). */
type StepOfSpan = { nodeId: string; baseNodeId: string; agentId: string | null; kind: string };

/** One step of a run (an agent, tool, code or guardrail step) as a child span of the run's. */
export function inStep<T>(step: StepOfSpan, work: () => Promise<T>): Promise<T> {
  const s = state;
  if (!s) return work();
  const attributes: Attributes = {
    'crewline.step.id': step.nodeId,
    'crewline.node.id': step.baseNodeId,
    'crewline.step.kind': step.kind,
  };
  if (step.agentId) attributes['crewline.agent.id'] = step.agentId;
  const span = s.tracer.startSpan(`step ${step.kind}`, { attributes });
  return within(s, span, s.api.context.active(), work);
}

/** A model call's answer as the span reads it (LlmResult's shape). */
type ModelAnswer = {
  text: string;
  model?: string;
  finishReason?: string;
  usage: { promptTokens: number; completionTokens: number };
};

/**
 * One model call (the gateway's request, its tool loop included) with the GenAI semantic
 * conventions: provider, model, operation, token counts and the cost `costUsd` works out. The
 * prompt and completion are added only with OTEL_CAPTURE_CONTENT=true; the connection (its key,
 * its address) never is.
 */
export function modelCall<T extends ModelAnswer>(
  call: {
    provider: string;
    model: string;
    /** What the model is asked: a system prompt and a user message, or a conversation. */
    prompt: { system: string } & ({ user: string } | { messages: { role: string; content: unknown }[] });
  },
  work: () => Promise<T>,
  costUsd?: (answer: T) => number | null | undefined,
): Promise<T> {
  const s = state;
  if (!s) return work();
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.system': call.provider,
    'gen_ai.provider.name': call.provider,
    'gen_ai.request.model': call.model,
  };
  if (s.captureContent) {
    const { prompt } = call;
    attributes['gen_ai.prompt'] = JSON.stringify([
      ...(prompt.system ? [{ role: 'system', content: prompt.system }] : []),
      ...('user' in prompt ? [{ role: 'user', content: prompt.user }] : prompt.messages),
    ]);
  }
  const span = s.tracer.startSpan(`chat ${call.model}`, { kind: s.api.SpanKind.CLIENT, attributes });
  return within(s, span, s.api.context.active(), work, (answer) => {
    span.setAttributes({
      'gen_ai.response.model': answer.model ?? call.model,
      'gen_ai.usage.input_tokens': answer.usage.promptTokens,
      'gen_ai.usage.output_tokens': answer.usage.completionTokens,
    });
    if (answer.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [answer.finishReason]);
    const cost = costUsd?.(answer);
    if (typeof cost === 'number') span.setAttribute('crewline.cost_usd', cost);
    if (s.captureContent)
      span.setAttribute('gen_ai.completion', JSON.stringify([{ role: 'assistant', content: answer.text }]));
  });
}

/** One tool call a model made, as a child of its model call's span (no arguments, no result). */
export function toolCall<T>(name: string, callId: string | undefined, work: () => Promise<T>): Promise<T> {
  const s = state;
  if (!s) return work();
  const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name };
  if (callId) attributes['gen_ai.tool.call.id'] = callId;
  const span = s.tracer.startSpan(`execute_tool ${name}`, { kind: s.api.SpanKind.INTERNAL, attributes });
  return within(s, span, s.api.context.active(), work);
}

/**
 * One server span per HTTP request, named `<METHOD> <route pattern>` with the HTTP semantic
 * attributes: method, route, status, scheme. Never the path (it may hold a token), the query,
 * headers, cookies or bodies. The route's handler runs with the span current, so a run it starts
 * records its traceparent. Registered before the routes (their handlers are wrapped as they are
 * added); nothing is registered when traces are off as the app is built (tests turn them off and
 * on again afterwards: the hooks read the facade's state at each request).
 */
export function registerHttpTracing(app: FastifyInstance) {
  if (!state) return;
  const spans = new WeakMap<FastifyRequest, { span: Span; parent: Context; api: TracingState['api'] }>();

  app.addHook('onRoute', (route) => {
    // A websocket route's handler is the plugin's to wrap (its arguments are a socket's).
    if ((route as { websocket?: boolean }).websocket) return;
    const handler = route.handler;
    route.handler = function traced(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const open = spans.get(request);
      if (!open) return handler.call(this, request, reply);
      const { api } = open;
      return api.context.with(api.trace.setSpan(open.parent, open.span), () =>
        handler.call(this, request, reply),
      );
    } as typeof route.handler;
  });

  app.addHook('onRequest', async (request) => {
    const s = state;
    if (!s) return;
    const { api } = s;
    const route = request.routeOptions.url;
    // A caller's own traceparent is continued, as any OpenTelemetry server does.
    const parent = api.propagation.extract(api.ROOT_CONTEXT, request.headers);
    const span = s.tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: api.SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.scheme': request.protocol,
          ...(route ? { 'http.route': route } : {}),
        },
      },
      parent,
    );
    spans.set(request, { span, parent, api });
  });

  const end = (request: FastifyRequest, status?: number) => {
    const open = spans.get(request);
    if (!open) return;
    spans.delete(request);
    const { api } = open;
    if (status !== undefined) {
      open.span.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        open.span.setStatus({ code: api.SpanStatusCode.ERROR });
        open.span.setAttribute('error.type', String(status));
      }
    } else {
      open.span.setAttribute('error.type', 'aborted');
    }
    open.span.end();
  };
  app.addHook('onResponse', async (request, reply) => end(request, reply.statusCode));
  app.addHook('onRequestAbort', async (request) => end(request));
}
