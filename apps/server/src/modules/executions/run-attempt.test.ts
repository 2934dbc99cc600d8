import type { RealtimeEvent } from '@crewline/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { LlmResult } from '../../platform/llm';
import { agentNamed, recordingBus, runIds } from '../../testing/runner-fakes';
import type { ClaimedRun } from './run-definitions';
import { abandonIfWornOut, runAttempt, type AttemptDeps } from './run-attempt';
import { Interrupted } from './run-errors';

const writer = agentNamed('Writer');
const answer = (text: string): LlmResult => ({
  text,
  usage: { promptTokens: 5, completionTokens: 5, totalTokens: 10 },
  steps: [],
  model: 'gpt-4o-mini',
  finishReason: 'stop',
  durationMs: 1,
});

const claimed = (more: Partial<ClaimedRun> = {}) =>
  ({
    id: runIds.executionId,
    organizationId: runIds.organizationId,
    workflowId: runIds.workflowId,
    workflowVersion: 1,
    attempt: 1,
    handedBack: 0,
    resumed: false,
    output: null,
    input: { topic: 'tides' },
    dynamicInstructions: null,
    parameters: null,
    startedAt: new Date(),
    extra: {},
    ...more,
  }) as unknown as ClaimedRun;

/** One attempt's world: a one-agent workflow, a repository that records, a bus that records. */
function world(ask = vi.fn(async () => answer('The draft'))) {
  const { bus, published, inStatements } = recordingBus();
  const calls: string[] = [];
  const repository = {
    completedSteps: vi.fn(async () => {
      calls.push('completedSteps');
      return { outputs: {}, undelivered: [] };
    }),
    recordStep: vi.fn(async () => {
      calls.push('recordStep');
      return true;
    }),
    recordFailedStep: vi.fn(async () => void calls.push('recordFailedStep')),
    markDelivered: vi.fn(async () => undefined),
    finish: vi.fn(async (_id: string, _attempt: number, end: { status: string }) => {
      calls.push(`finish ${end.status}`);
      return true;
    }),
    completeWithStep: vi.fn(async (..._args: unknown[]) => {
      calls.push('completeWithStep');
      return true;
    }),
    release: vi.fn(async () => void calls.push('release')),
    renewLease: vi.fn(async () => true),
    abandon: vi.fn(async () => ({}) as never),
  };
  const definitions = {
    of: vi.fn(async () => ({
      name: 'Weekly report',
      definition: {
        processType: 'sequential' as const,
        nodes: [
          { id: 'start', type: 'start' as const },
          { id: 'n1', type: 'agent' as const, agentId: writer.id, data: {} },
          { id: 'end', type: 'end' as const },
        ],
        edges: [
          { source: 'start', target: 'n1' },
          { source: 'n1', target: 'end' },
        ],
        agents: { [writer.id]: writer },
      },
      agents: new Map([[writer.id, writer]]),
      ask,
      connection: vi.fn(),
    })),
  };
  const deps = {
    repository,
    definitions,
    events: bus,
    leaseMs: 30_000,
    maxAttempts: 3,
  } as unknown as AttemptDeps;
  return { deps, repository, calls, published, inStatements, ask };
}

const types = (events: RealtimeEvent[]) => events.map((event) => event.type);

describe("an attempt's orchestration", () => {
  it('runs a fresh run through the engine: its last step stored with the run’s end, in one statement with the events', async () => {
    const w = world();
    await runAttempt(w.deps, claimed(), { abort: new AbortController(), draining: () => false });
    // A fresh run has no finished steps to read, and its one step is stored by the run's end.
    expect(w.calls).toEqual(['completeWithStep']);
    expect(w.ask).toHaveBeenCalledTimes(1);
    expect(w.inStatements.map(types)).toEqual([
      [
        'workflow_execution_started',
        'execution_node_started',
        'execution_node_completed',
        'workflow_execution_completed',
      ],
    ]);
    expect(w.published).toEqual([]);
    const [, , finished, stored] = w.repository.completeWithStep.mock.calls[0] as unknown as [
      string,
      number,
      { output: Record<string, { content: string }>; logs: { message: string }[] },
      { nodeId: string; runLogs: { message: string }[] },
    ];
    expect(finished.output.n1.content).toBe('The draft');
    expect(finished.logs.map((l) => l.message)).toEqual(['Run completed']);
    expect(stored.nodeId).toBe('n1');
    expect(stored.runLogs.map((l) => l.message)).toEqual([
      'Run started',
      expect.stringMatching(/^Writer finished in \d+ ms$/),
    ]);
  });

  it('a resumed attempt reads the finished steps first and says so in the log', async () => {
    const w = world();
    await runAttempt(w.deps, claimed({ attempt: 2, resumed: true }), {
      abort: new AbortController(),
      draining: () => false,
    });
    expect(w.calls[0]).toBe('completedSteps');
    const stored = (w.repository.completeWithStep.mock.calls[0] as unknown[])[3] as {
      runLogs: { message: string }[];
    };
    expect(stored.runLogs[0].message).toBe(
      'Resumed (attempt 2) after the previous worker stopped; 0 finished step(s) reused',
    );
  });

  it('cancelled, calls no model and leaves the run as the cancel left it', async () => {
    const w = world();
    const abort = new AbortController();
    abort.abort(new Interrupted('cancelled'));
    await runAttempt(w.deps, claimed(), { abort, draining: () => false });
    expect(w.ask).not.toHaveBeenCalled();
    expect(w.calls).toEqual([]);
    // The run's started event still goes out: it waited for a statement that never came.
    expect(types(w.published)).toEqual(['workflow_execution_started', 'execution_node_started']);
  });

  it('with the worker stopping, starts no step and hands the run back', async () => {
    const w = world();
    await runAttempt(w.deps, claimed(), { abort: new AbortController(), draining: () => true });
    expect(w.ask).not.toHaveBeenCalled();
    expect(w.calls).toEqual(['release']);
  });

  it('a failing model call fails the run with its error, after storing the failed step', async () => {
    const w = world(vi.fn(async () => Promise.reject(new Error('socket hang up'))));
    await runAttempt(w.deps, claimed(), { abort: new AbortController(), draining: () => false });
    expect(w.calls).toEqual(['recordFailedStep', 'finish failed']);
    expect(w.repository.finish.mock.calls[0][2]).toMatchObject({
      status: 'failed',
      error: 'The run stopped unexpectedly: socket hang up',
      failedStep: 'Writer',
    });
    expect(types(w.published)).toEqual([
      'workflow_execution_started',
      'execution_node_started',
      'execution_node_failed',
      'workflow_execution_failed',
    ]);
  });
});

describe('a run cut short too often', () => {
  it('is failed instead of run again, not counting the attempts handed back on a graceful stop', async () => {
    const w = world();
    expect(await abandonIfWornOut(w.deps, claimed({ attempt: 5, handedBack: 2 }))).toBe(false);
    expect(w.repository.abandon).not.toHaveBeenCalled();
    expect(await abandonIfWornOut(w.deps, claimed({ attempt: 4, handedBack: 0 }))).toBe(true);
    const reason = 'The run was stopped: its worker stopped 3 times before it could finish.';
    expect(w.repository.abandon).toHaveBeenCalledWith('run-1', 4, reason);
    expect(w.published).toEqual([{ type: 'workflow_execution_failed', ...runIds, error: reason }]);
  });
});
