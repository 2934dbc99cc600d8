import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Approval, AuthResponse, CreateWorkflowInput } from '@crewline/contracts';
import {
  approvalsOfRun,
  configureModel,
  createAgent,
  joinOrganization,
  startNewWorkflow,
  waitForRunStatus,
} from './app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server';
import { startFakeSmtpServer, type FakeSmtpServer } from './fake-smtp-server';
import { createTestApp, type TestApp } from './test-app';

/** The address the suites' links and Inbox links start with. */
export const PUBLIC_URL = 'https://crew.example.com';
/** A refund's input, where a test gives no other values. */
const REFUND_INPUT = { amount: 120, customer: 'Acme', order: 'A-17' };

const at = { x: 0, y: 0 };

/**
 * What the suites of approvals' messages share (links, notifications, reminders): a worker-backed app
 * whose mail goes to the SMTP test server and whose waits' clock a test moves (`suite.offsetMs`, back
 * to 0 before each test); Ada (owner, the fake model configured), Bob (admin) and Cyd (member); and
 * the Sender agent a refund's approved path runs. Registers its own beforeAll, afterAll and beforeEach.
 */
export function useApprovalMailSuite() {
  const suite = { offsetMs: 0 } as {
    t: TestApp;
    fake: FakeLlmServer;
    smtp: FakeSmtpServer;
    ada: AuthResponse;
    bob: AuthResponse;
    cyd: AuthResponse;
    sender: string;
    offsetMs: number;
  };
  beforeAll(async () => {
    suite.fake = await startFakeLlmServer();
    suite.smtp = await startFakeSmtpServer({ user: 'crewline', pass: 's3cret-smtp' });
    suite.t = await createTestApp({
      worker: true,
      emailMonitor: false,
      config: {
        mail: { smtpUrl: suite.smtp.url, from: 'Crewline <no-reply@crewline.test>' },
        publicUrl: PUBLIC_URL,
      },
      clock: () => new Date(Date.now() + suite.offsetMs),
    });
    const { t } = suite;
    suite.ada = await t.signup();
    await configureModel(t, suite.ada.token, suite.fake.url);
    suite.bob = await joinOrganization(t, suite.ada, await t.signup(), 'admin');
    suite.cyd = await joinOrganization(t, suite.ada, await t.signup(), 'member');
    suite.sender = (await createAgent(t, suite.ada.token, { name: 'Sender' })).id;
  });
  afterAll(async () => {
    await suite.t?.close();
    await suite.smtp?.close();
    await suite.fake?.close();
  });
  beforeEach(() => {
    suite.offsetMs = 0;
  });

  /** start → approve (approval) → approved: send → end */
  function refund(name: string, approval: Record<string, unknown>): CreateWorkflowInput {
    return {
      name,
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: at },
        {
          id: 'approve',
          type: 'approval',
          position: at,
          data: {
            label: 'Approve refund',
            title: 'Refund {{ input.amount }} € to {{ input.customer }}?',
            message: 'The customer was charged twice for order {{ input.order }}.',
            ...approval,
          },
        },
        { id: 'send', type: 'agent', agentId: suite.sender, position: at, data: { label: 'Send' } },
        { id: 'end', type: 'end', position: at },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'approve' },
        { id: 'e2', source: 'approve', target: 'send', sourceHandle: 'approved' },
        { id: 'e3', source: 'send', target: 'end' },
      ],
    };
  }

  /**
   * Starts a run of a new refund workflow (as Ada; `input` over REFUND_INPUT) and answers it once it
   * waits, with its approval.
   */
  async function waitingRun(
    name: string,
    approval: Record<string, unknown>,
    input: Record<string, unknown> = {},
  ): Promise<{ id: string; approval: Approval }> {
    const { t, ada } = suite;
    const { id } = await startNewWorkflow(t, ada.token, refund(name, approval), {
      ...REFUND_INPUT,
      ...input,
    });
    await waitForRunStatus(t, ada.token, id, 'waiting');
    return { id, approval: (await approvalsOfRun(t, ada.token, id))[0] };
  }

  return { suite, waitingRun };
}
