import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionMessages, type AuthResponse, type Execution, type Workflow } from '@crewline/contracts';
import { createAgent, createChainWorkflow, waitForRunEnd } from '../../testing/app-fixtures';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import type { TestApp } from '../../testing/test-app';
import { AlreadyTakenError, type TriggerEvent } from './triggers.service';

// The triggers' one way to start a run: through startRun, with the trigger recorded and a refusal kept
// on the workflow.
let t: TestApp, fake: FakeLlmServer, ada: AuthResponse, bob: AuthResponse;
let workflowId: string;

beforeAll(async () => {
  ({ t, fake, ada, bob } = await startFakeModelSuite());
  const agent = await createAgent(t, ada.token, { name: 'Clerk' });
  workflowId = await createChainWorkflow(t, ada.token, 'Nightly digest', [agent.id], { status: 'draft' });
});
afterAll(() => closeInOrder(t, fake));

const organizationId = () => ada.organization.id;
/** Fires the workflow's trigger for Ada's organization unless `event` names another. */
const fire = (trigger: TriggerEvent['trigger'], event: Partial<TriggerEvent> = {}) =>
  t.services.triggers.fire({ organizationId: organizationId(), workflowId, trigger, input: {}, ...event });
const workflow = async () =>
  (
    await t.request({ method: 'GET', url: `/api/workflows/${workflowId}`, token: ada.token })
  ).json() as Workflow;
const runCount = async () =>
  (
    (
      await t.request({ method: 'GET', url: `/api/executions?workflowId=${workflowId}`, token: ada.token })
    ).json() as unknown[]
  ).length;

describe('firing a trigger', () => {
  it('keeps a refusal on the workflow, publishes it, and starts nothing', async () => {
    const before = await workflow();
    await expect(fire('schedule')).rejects.toThrow(executionMessages.draft);

    const after = await workflow();
    expect(after.lastTriggerError).toEqual({ message: executionMessages.draft, at: expect.any(String) });
    // Not an edit: the workflow keeps its place in the lists.
    expect(after.updatedAt).toBe(before.updatedAt);
    // The Postgres bus delivers the event back to this process a moment after the publish.
    await expect
      .poll(() => t.published)
      .toContainEqual({
        type: 'workflow_trigger_failed',
        organizationId: organizationId(),
        workflowId,
        error: executionMessages.draft,
      });
    expect(await runCount()).toBe(0);
  });

  it('starts a run with the event as input and no person, and clears the last error', async () => {
    const activated = await t.request({
      method: 'PUT',
      url: `/api/workflows/${workflowId}`,
      token: ada.token,
      payload: { status: 'active' },
    });
    expect(activated.statusCode).toBe(200);
    fake.script([{ content: 'Digest sent' }]);

    const started = await fire('webhook', { input: { order: 42 } });
    expect(started).toMatchObject({ trigger: 'webhook', triggeredBy: null, input: { order: 42 } });
    expect((await workflow()).lastTriggerError).toBeNull();

    const done: Execution = await waitForRunEnd(t, ada.token, started.id);
    expect(done).toMatchObject({ status: 'completed', trigger: 'webhook', triggeredBy: null });
    const listed = (
      await t.request({ method: 'GET', url: `/api/executions?workflowId=${workflowId}`, token: ada.token })
    ).json() as { id: string; trigger: string }[];
    expect(listed.find((run) => run.id === started.id)?.trigger).toBe('webhook');
    // The prompt carried the event like a manual run's input.
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain('42');
  });

  it('starts nothing and reports nothing when the event was taken already', async () => {
    const runs = await runCount();
    await expect(
      fire('schedule', { prepare: () => Promise.reject(new AlreadyTakenError()) }),
    ).rejects.toBeInstanceOf(AlreadyTakenError);
    expect(await runCount()).toBe(runs);
    expect((await workflow()).lastTriggerError).toBeNull();
  });

  it("never marks another organization's workflow", async () => {
    await expect(fire('schedule', { organizationId: bob.organization.id })).rejects.toThrow(
      'Workflow not found',
    );
    expect((await workflow()).lastTriggerError).toBeNull();
  });
});
