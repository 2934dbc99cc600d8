// The workflow builder as its component tests open it: full contract fixtures for the agents and the
// workflow it loads, and the edit page rendered on that workflow with its requests answered by MSW.
import type {
  Agent,
  Evaluation,
  ExecutionSummary,
  UpdateWorkflowInput,
  Workflow,
  WorkflowPublishing,
} from '@crewline/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { expect } from 'vitest';

import { WorkflowEditPage } from '@/features/workflows/pages/workflow-builder-page';

import { answerGet, ORIGIN, server } from './msw-server';
import { renderWithApp } from './render';

export const at = '2026-01-01T10:00:00.000Z';

/** An active agent of org-1; the test names what it reads. */
export const agentFixture = (
  fields: Pick<Agent, 'id' | 'name' | 'role' | 'goal'> & Partial<Agent>,
): Agent => ({
  description: null,
  backstory: null,
  llmProvider: 'openai',
  llmModel: 'gpt-4o-mini',
  temperature: 70,
  maxTokens: 2000,
  systemPrompt: null,
  tools: [],
  status: 'active',
  templateCategory: null,
  templateTags: [],
  config: {},
  memory: { enabled: false, connection: 'openai', model: 'text-embedding-3-small' },
  guardrails: {},
  organizationId: 'org-1',
  createdBy: 'u1',
  createdAt: at,
  updatedAt: at,
  ...fields,
});

/** Workflow wf-1 of org-1, a manual sequential draft; the test gives its name and graph. */
export const workflowFixture = (
  fields: Pick<Workflow, 'name' | 'nodes' | 'edges'> & Partial<Workflow>,
): Workflow => ({
  id: 'wf-1',
  description: null,
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  config: {},
  status: 'draft',
  templateCategory: null,
  templateTags: [],
  organizationId: 'org-1',
  createdBy: 'u1',
  createdAt: at,
  updatedAt: at,
  nextRunAt: null,
  lastTriggerError: null,
  ...fields,
});

/**
 * Opens the builder on `workflow` and waits for its name. GET /api/executions answers `runs`, a save
 * answers the workflow and its body is pushed onto `sent`; `handlers` answer whatever else the test needs.
 */
export async function openBuilder({
  workflow,
  agents,
  runs = [],
  handlers = [],
}: {
  workflow: Workflow;
  agents: Agent[];
  runs?: ExecutionSummary[];
  handlers?: RequestHandler[];
}) {
  const sent: UpdateWorkflowInput[] = [];
  server.use(
    answerGet<Workflow>('/api/workflows/wf-1', workflow),
    answerGet<Agent[]>('/api/agents', agents),
    http.get(`${ORIGIN}/api/executions`, () => HttpResponse.json(runs)),
    http.put(`${ORIGIN}/api/workflows/wf-1`, async ({ request }) => {
      sent.push((await request.json()) as UpdateWorkflowInput);
      return HttpResponse.json(workflow);
    }),
    ...handlers,
    // The Settings tab's MCP and Chat app sections read it: not published, unless a test's handler says otherwise.
    answerGet<WorkflowPublishing>('/api/workflows/wf-1/publishing', { mcp: null, chat: null }),
    // And its Evaluations section: none, unless a test's handler says otherwise.
    answerGet<Evaluation[]>('/api/evaluations', []),
  );
  const view = renderWithApp(<WorkflowEditPage />, {
    path: '/workflows/edit/:id',
    url: '/workflows/edit/wf-1',
  });
  expect(await screen.findByDisplayValue(workflow.name)).toBeTruthy();
  return { ...view, sent, user: userEvent.setup() };
}

/** The canvas node with id `id`, once it is drawn. */
export const findCanvasNode = (container: HTMLElement, id: string) =>
  waitFor(() => {
    const found = container.querySelector<HTMLElement>(`.react-flow__node[data-id="${id}"]`);
    expect(found).not.toBeNull();
    return found as HTMLElement;
  });
