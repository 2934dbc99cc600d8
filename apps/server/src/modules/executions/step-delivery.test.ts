import type { NodeOutput } from '@crewline/contracts';
import { describe, expect, it, vi } from 'vitest';
import { runIds } from '../../testing/runner-fakes';
import { OutputDeliveryError, type OutputDelivery } from './output-delivery';
import { createRunLog } from './run-log';
import { createStepDelivery } from './step-delivery';

const output = (content: string, more: Partial<NodeOutput['metadata']> = {}): NodeOutput => ({
  content,
  metadata: { agentName: 'Writer', role: 'Writer', model: 'gpt-4o-mini', baseNodeId: 'n1', ...more },
  executionTime: 5,
  usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
});

function delivery(options: { withDelivery?: boolean; answer?: () => Promise<string | undefined> } = {}) {
  const deliver = vi.fn(async (..._args: unknown[]): Promise<string | undefined> =>
    options.answer ? options.answer() : 'Sent to https://hooks.example/x',
  );
  const markDelivered = vi.fn(async () => undefined);
  const runLog = createRunLog();
  const nodeData = new Map<string, Record<string, unknown>>([
    ['n1', { label: 'Draft', outputDestination: 'webhook', webhookUrl: 'https://hooks.example/x' }],
    ['n2', { outputDestination: 'database' }],
  ]);
  const steps = createStepDelivery({
    delivery: options.withDelivery === false ? undefined : ({ deliver } as unknown as OutputDelivery),
    repository: { markDelivered },
    ids: runIds,
    attempt: 3,
    workflowName: 'Weekly report',
    nodeData,
    signal: new AbortController().signal,
    runLog,
  });
  return { steps, deliver, markDelivered, runLog };
}

describe("a step's delivery", () => {
  it("sends only for a node whose destination is outside the run's record", () => {
    const { steps } = delivery();
    expect(steps.sends('n1')).toBe(true);
    expect(steps.sends('n2')).toBe(false);
    expect(steps.sends('unknown')).toBe(false);
    expect(delivery({ withDelivery: false }).steps.sends('n1')).toBe(false);
  });

  it('sends the stored content to the node, marks it sent with the attempt, and logs where it went', async () => {
    const { steps, deliver, markDelivered, runLog } = delivery();
    await steps.deliver('n1', 'n1', output('The draft', { reusedFrom: 'run-0' }));
    expect(deliver).toHaveBeenCalledWith(
      {
        ...runIds,
        workflowName: 'Weekly report',
        nodeId: 'n1',
        agentName: 'Writer',
        data: expect.objectContaining({ webhookUrl: 'https://hooks.example/x' }),
        producedBy: 'run-0',
      },
      'The draft',
      { signal: expect.any(AbortSignal) },
    );
    expect(markDelivered).toHaveBeenCalledWith('run-1', 3, 'n1');
    expect(runLog.unstored()).toEqual([
      expect.objectContaining({
        level: 'info',
        message: 'Writer: Sent to https://hooks.example/x',
        nodeId: 'n1',
      }),
    ]);
  });

  it('a refused delivery fails and leaves the step unsent', async () => {
    const { steps, markDelivered } = delivery({
      answer: () =>
        Promise.reject(new OutputDeliveryError('Writer could not send its output to the webhook')),
    });
    await expect(steps.deliver('n1', 'n1', output('The draft'))).rejects.toThrow(
      'Writer could not send its output to the webhook',
    );
    expect(markDelivered).not.toHaveBeenCalled();
  });

  it('sends what an earlier attempt stored but did not send, in order, checking for a stop before each', async () => {
    const { steps, deliver } = delivery();
    const checks: string[] = [];
    await steps.pending(
      {
        outputs: { n1: output('first'), 'n1#2': output('second') },
        undelivered: [
          { nodeId: 'n1', baseNodeId: 'n1' },
          { nodeId: 'n1#2', baseNodeId: 'n1' },
        ],
      },
      () => checks.push('checked'),
    );
    expect(deliver.mock.calls.map((call) => call[1])).toEqual(['first', 'second']);
    expect(checks).toEqual(['checked', 'checked']);
  });

  it('sends nothing more once the attempt is stopped', async () => {
    const { steps, deliver } = delivery();
    const stop = () => {
      throw new Error('cancelled');
    };
    await expect(
      steps.pending(
        { outputs: { n1: output('first') }, undelivered: [{ nodeId: 'n1', baseNodeId: 'n1' }] },
        stop,
      ),
    ).rejects.toThrow('cancelled');
    expect(deliver).not.toHaveBeenCalled();
  });
});
