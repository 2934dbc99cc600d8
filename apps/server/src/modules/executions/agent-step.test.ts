import type { AgentCall } from '@crewline/engine';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLlmGateway, type LlmResult } from '../../platform/llm';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createAgentModel, type RunAgents } from '../agents/agent-model';
import { agentNamed, recordingBus, runIds } from '../../testing/runner-fakes';
import { createStepMemory } from '../memory/step-memory';
import { createAgentStep, STREAM_INTERVAL_MS } from './agent-step';
import { createEventOutbox } from './event-outbox';
import { createRunLog } from './run-log';
import type { MadeCall } from './step-recorder';

const usage = (total: number) => ({
  promptTokens: total / 2,
  completionTokens: total / 2,
  totalTokens: total,
});
const result = (text: string, more: Partial<LlmResult> = {}): LlmResult => ({
  text,
  usage: usage(20),
  steps: [],
  model: 'gpt-4o-mini-2024',
  finishReason: 'stop',
  durationMs: 5,
  ...more,
});

const writer = agentNamed('Writer');
const remembering = agentNamed('Keeper', {
  memory: { enabled: true, connection: 'openai', model: 'text-embedding-3-small' },
});
const callOf = (agent = writer): AgentCall => ({
  step: { nodeId: 'n2#1', baseNodeId: 'n2', agentId: agent.id, kind: 'agent' as const },
  nodeId: 'n2#1',
  agent: { ...agent, role: agent.role, goal: agent.goal, backstory: agent.backstory },
  system: 'You are Writer.',
  user: 'Write the draft.',
});

function step(options: {
  ask: RunAgents['ask'];
  watched?: boolean;
  memory?: Parameters<typeof createAgentStep>[0]['memory'];
}) {
  const { bus, published } = recordingBus();
  const outbox = createEventOutbox(bus);
  const runLog = createRunLog();
  const made: MadeCall[] = [];
  const agentStep = createAgentStep({
    ask: options.ask,
    connection: () => ({ provider: 'openai', apiKey: 'sk-test' }) as never,
    memory: options.memory,
    watched: () => options.watched ?? false,
    ids: runIds,
    outbox,
    runLog,
    made: (m) => made.push(m),
    signal: new AbortController().signal,
  });
  return { agentStep, published, runLog, made, outbox };
}

describe('an agent step', () => {
  it("answers the model's text, tokens and model, and hands the call as made, with its trace, to the record", async () => {
    const ask = vi.fn<RunAgents['ask']>(async () => result('The draft'));
    const s = step({ ask });
    const answer = await s.agentStep(callOf(), writer);
    // One model call, as the step's usage counts them.
    expect(answer).toEqual({
      content: 'The draft',
      usage: { ...usage(20), calls: 1 },
      model: 'gpt-4o-mini-2024',
    });
    expect(ask).toHaveBeenCalledWith(
      writer,
      { system: 'You are Writer.', user: 'Write the draft.' },
      expect.objectContaining({ onTextDelta: undefined, trace: s.made[0].trace }),
    );
    expect(s.made).toEqual([{ call: callOf(), agent: writer, trace: expect.any(Object) }]);
    expect(s.published).toEqual([]);
  });

  it('logs each tool the agent used, a failed one as a warning', async () => {
    const s = step({
      ask: async () =>
        result('Done', {
          steps: [
            {
              toolCalls: [],
              toolResults: [
                { name: 'search', result: 'ok' },
                { name: 'notes', result: 'denied', isError: true },
              ],
            },
          ],
        }),
    });
    await s.agentStep(callOf(), writer);
    expect(s.runLog.ofStep('n2#1').map((l) => [l.level, l.message])).toEqual([
      ['info', 'Writer used the tool search'],
      ['warn', 'Writer used the tool notes (it failed)'],
    ]);
  });

  describe('watched live', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it("streams its answer under the step's id and node, after its started event", async () => {
      let finish!: () => void;
      const s = step({
        watched: true,
        ask: async (_agent, _prompt, options) => {
          options?.onTextDelta?.('Hello ');
          options?.onTextDelta?.('world');
          await new Promise<void>((resolve) => (finish = resolve));
          return result('Hello world');
        },
      });
      s.outbox.soon({ type: 'execution_node_started', ...runIds, nodeId: 'n2#1', baseNodeId: 'n2' });
      const answered = s.agentStep(callOf(), writer);
      await vi.advanceTimersByTimeAsync(STREAM_INTERVAL_MS);
      finish();
      await answered;
      expect(s.published).toEqual([
        { type: 'execution_node_started', ...runIds, nodeId: 'n2#1', baseNodeId: 'n2' },
        {
          type: 'execution_node_delta',
          ...runIds,
          nodeId: 'n2#1',
          baseNodeId: 'n2',
          offset: 0,
          text: 'Hello world',
        },
      ]);
    });
  });

  it('is not streamed while nobody watches', async () => {
    const ask = vi.fn<RunAgents['ask']>(async () => result('Done'));
    await step({ ask, watched: false }).agentStep(callOf(), writer);
    expect(ask.mock.calls[0][2]?.onTextDelta).toBeUndefined();
  });

  it('with memory on: recalls before the call, keeps after it, and counts the extraction with its tokens', async () => {
    const recall = vi.fn(async () => ({ memories: ['The client is Acme.'], tokens: 3 }));
    const remember = vi.fn(
      async (_context: unknown, _step: unknown, extract: (p: never) => Promise<unknown>) => {
        await extract({ system: 'extract', user: 'facts' } as never);
        return { kept: ['Acme likes short drafts.'], usage: usage(6), embeddingTokens: 2 };
      },
    );
    const ask = vi.fn<RunAgents['ask']>(async (_agent, prompt) =>
      result(prompt.system === 'extract' ? 'Acme likes short drafts.' : 'The draft', {
        usage: prompt.system === 'extract' ? usage(6) : usage(20),
      }),
    );
    const memory = { recall, remember } as never;
    const s = step({ ask, memory: { stepMemory: (run) => createStepMemory({ ...run, memory }) } });
    const answer = await s.agentStep(callOf(remembering), remembering);
    expect(recall).toHaveBeenCalledWith(
      expect.objectContaining({ agentId: remembering.id }),
      'Write the draft.',
    );
    expect(s.made[0].call.system).toContain('The client is Acme.');
    expect(ask.mock.calls[0][1]).toEqual({ system: s.made[0].call.system, user: 'Write the draft.' });
    expect(ask.mock.calls[1][2]).toMatchObject({ withoutTools: true });
    // The step's call and the extraction's: two calls.
    expect(answer.usage).toEqual({ ...usage(26), calls: 2 });
    expect(s.runLog.ofStep('n2#1').map((l) => l.message)).toEqual([
      'Keeper recalled 1 memory',
      'Keeper remembered 1 new fact',
    ]);
  });
});

/** A triage schema as a user writes it (`priority` optional). */
const triage = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['billing', 'bug', 'other'] },
    priority: { type: 'integer' },
  },
  required: ['category'],
};

describe('an agent step with an output schema', () => {
  it('asks with the schema the engine chose and answers the parsed data beside the text', async () => {
    const ask = vi.fn<RunAgents['ask']>(async () =>
      result('{"category":"bug"}', { data: { category: 'bug' } }),
    );
    const answer = await step({ ask }).agentStep({ ...callOf(), outputSchema: triage }, writer);
    expect(ask.mock.calls[0][2]).toMatchObject({ outputSchema: triage });
    expect(answer).toEqual({
      content: '{"category":"bug"}',
      data: { category: 'bug' },
      usage: { ...usage(20), calls: 1 },
      model: 'gpt-4o-mini-2024',
    });
  });

  describe('against the fake model, through the agents module', () => {
    let fake: FakeLlmServer;
    beforeAll(async () => {
      fake = await startFakeLlmServer();
    });
    afterAll(() => fake.close());
    beforeEach(() => fake.reset());

    /** The run's `ask` as the agents module makes it, on a connection to the fake. */
    const runAsk = () =>
      createAgentModel({
        llm: createLlmGateway(),
        connections: {
          connectionsFrom: () => () => ({ provider: 'openai', apiKey: 'sk-test', baseUrl: fake.url }),
        } as never,
        tools: { resolve: () => [] } as never,
        toolRuntime: { modelTools: async () => ({}) } as never,
      }).forRun(runIds.organizationId, { agents: [], configurations: [] }).ask;

    it('returns the data the model answered in the shape asked for', async () => {
      const s = step({ ask: runAsk() });
      const answer = await s.agentStep(
        { ...callOf(), user: 'The app crashes on save: a bug.', outputSchema: triage },
        writer,
      );
      expect(fake.requests[0].body.response_format.json_schema.schema).toMatchObject({
        required: ['category', 'priority'],
        additionalProperties: false,
      });
      expect(answer.data).toEqual({ category: 'bug', priority: 1 });
      expect(JSON.parse(answer.content)).toEqual(answer.data);
    });

    it('asks again once when the answer did not follow the schema, and the trace counts that retry', async () => {
      fake.script([{ data: { category: 'refund' } }, { data: { category: 'billing' } }]);
      const s = step({ ask: runAsk() });
      const answer = await s.agentStep({ ...callOf(), outputSchema: triage }, writer);
      expect(answer.data).toEqual({ category: 'billing' });
      expect(s.made[0].trace).toMatchObject({ requests: 2, outputRetries: 1 });
      expect(answer.usage.promptTokens).toBeGreaterThan(0);
      expect(fake.requests).toHaveLength(2);
    });

    it('fails the step readably when the second answer does not follow it either', async () => {
      fake.script([{ content: 'billing' }, { content: 'billing, I think' }]);
      const s = step({ ask: runAsk() });
      await expect(s.agentStep({ ...callOf(), outputSchema: triage }, writer)).rejects.toThrow(
        "OpenAI's answer did not follow the output schema, even when asked again: the answer is not JSON",
      );
    });

    it('without a schema, answers text and no data, as before', async () => {
      const answer = await step({ ask: runAsk() }).agentStep(callOf(), writer);
      expect(fake.requests[0].body.response_format).toBeUndefined();
      expect(answer).not.toHaveProperty('data');
      expect(answer.content).toBe('Fake reply to: Write the draft.');
    });
  });
});
