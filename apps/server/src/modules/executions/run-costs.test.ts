import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costMicros, usdOfMicros, type AuthResponse, type ExecutionSummary } from '@crewline/contracts';
import { runToEnd, workflowOnFakeModel } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * What a run costs (docs/product-rules.md, Costs): each agent step's model call is priced at the
 * table in force when it ran (the fake model server reports its usage, as OpenAI does), the run's cost
 * is the exact sum of its steps', and a model without a price makes the cost unknown, never 0,
 * naming the model.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const gpt4o = { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 };
const gpt4oMini = { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6 };

async function summaryOf(workflowId: string, id: string): Promise<ExecutionSummary> {
  const res = await t.request({
    method: 'GET',
    url: `/api/executions?workflowId=${workflowId}`,
    token: ada.token,
  });
  return (res.json() as ExecutionSummary[]).find((run) => run.id === id)!;
}

describe('a run’s cost', () => {
  it('is each step’s usage at its model’s price, summed exactly, on the steps, the run and its summary', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Priced chain',
      agents: [
        { name: 'Drafter', llmModel: 'gpt-4o' },
        { name: 'Editor', llmModel: 'gpt-4o-mini' },
      ],
    });
    fake.script([{ content: 'A first draft of four words.' }, { content: 'Edited.' }]);
    const run = await runToEnd(t, ada.token, workflowId, { topic: 'prices' });
    expect(run.status).toBe('completed');

    const [draft, edit] = [run.output.n1, run.output.n2];
    const priced = (usage: typeof draft.usage, price: typeof gpt4o) =>
      usdOfMicros(
        costMicros({ inputTokens: usage.promptTokens, outputTokens: usage.completionTokens }, price),
      );
    expect(draft.usage.promptTokens).toBeGreaterThan(0);
    expect(draft.usage.costUsd).toBe(priced(draft.usage, gpt4o));
    expect(edit.usage.costUsd).toBe(priced(edit.usage, gpt4oMini));
    expect(draft.usage.costUsd).toBeGreaterThan(0);
    const total = usdOfMicros(Math.round(draft.usage.costUsd! * 1e6) + Math.round(edit.usage.costUsd! * 1e6));
    expect(run.metrics.costUsd).toBe(total);
    expect(run.metrics.unpricedModels).toBeUndefined();
    expect((await summaryOf(workflowId, run.id)).costUsd).toBe(total);
  });

  it('is kept as it was priced: a later price edit changes only the runs after it', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Repriced',
      agents: [{ name: 'Writer', llmModel: 'gpt-4o' }],
    });
    fake.script([{ content: 'Before the edit.' }]);
    const before = await runToEnd(t, ada.token, workflowId);
    const edited = await t.request({
      method: 'PUT',
      url: '/api/prices',
      token: ada.token,
      payload: { provider: 'openai', model: 'gpt-4o', inputPerMillion: 25, outputPerMillion: 100 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    try {
      fake.script([{ content: 'Before the edit.' }]);
      const after = await runToEnd(t, ada.token, workflowId);
      const again = (
        await t.request({ method: 'GET', url: `/api/executions/${before.id}`, token: ada.token })
      ).json();
      expect(again.metrics.costUsd).toBe(before.metrics.costUsd);
      // The same prompt and answer, at the new price.
      expect(after.output.n1.usage.promptTokens).toBe(before.output.n1.usage.promptTokens);
      const { promptTokens, completionTokens } = after.output.n1.usage;
      expect(after.metrics.costUsd).toBe(
        usdOfMicros(
          costMicros(
            { inputTokens: promptTokens, outputTokens: completionTokens },
            { inputPerMillion: 25, cachedInputPerMillion: 25, outputPerMillion: 100 },
          ),
        ),
      );
      expect(after.metrics.costUsd).toBeGreaterThan(before.metrics.costUsd!);
    } finally {
      await t.request({ method: 'DELETE', url: '/api/prices/openai/gpt-4o', token: ada.token });
    }
  });

  it('is unknown, never 0, when a model has no price, and says which', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Half priced chain',
      agents: [
        { name: 'Drafter', llmModel: 'gpt-4o' },
        { name: 'Local editor', llmModel: 'my-fine-tune' },
      ],
    });
    fake.script([{ content: 'Draft.' }, { content: 'Edited.' }]);
    const run = await runToEnd(t, ada.token, workflowId);
    expect(run.output.n1.usage.costUsd).toBeGreaterThan(0);
    expect(run.output.n2.usage).toMatchObject({ costUsd: null, unpricedModels: ['my-fine-tune'] });
    expect(run.metrics).toMatchObject({ costUsd: null, unpricedModels: ['my-fine-tune'] });
    expect((await summaryOf(workflowId, run.id)).costUsd).toBeNull();
  });
});
