import { evaluationMessages, type Workflow } from '@crewline/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { queryKeys } from '@/lib/queries/keys';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { WorkflowCard } from './workflow-card';

const at = '2026-01-01T10:00:00.000Z';
const agentNode = (id: string) => ({
  id,
  type: 'agent' as const,
  agentId: id,
  position: { x: 0, y: 0 },
  data: {},
});

function workflow(id: string, status: Workflow['status'], agents: number): Workflow {
  return {
    id,
    name: `Flow ${id}`,
    description: null,
    processType: 'sequential',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
      ...Array.from({ length: agents }, (_, n) => agentNode(`a${n}`)),
      { id: 'end', type: 'end', position: { x: 0, y: 0 }, data: {} },
    ],
    edges: [],
    config: {},
    status,
    templateCategory: null,
    templateTags: [],
    organizationId: 'org-1',
    createdBy: 'u1',
    createdAt: at,
    updatedAt: at,
    nextRunAt: null,
    lastTriggerError: null,
  };
}

describe('the workflow card', () => {
  it('offers Activate, Execute or Resume by status, and counts the agents', async () => {
    const statuses: [Workflow['status'], number][] = [
      ['draft', 0],
      ['active', 1],
      ['paused', 2],
      ['failed', 3],
    ];
    renderWithApp(
      <>
        {statuses.map(([status, agents]) => (
          <WorkflowCard key={status} workflow={workflow(status, status, agents)} lastExecution={null} />
        ))}
      </>,
    );
    const cards = await screen.findAllByTestId('workflow-card');
    expect(
      cards.map((card) => [
        within(card).getByTestId('workflow-status').dataset.status,
        within(card).getByTestId('workflow-agent-count').textContent,
        within(card).getByRole('button', { name: /^(Activate|Execute|Resume)$/ }).textContent,
      ]),
    ).toEqual([
      ['draft', '0 agents', 'Activate'],
      ['active', '1 agent', 'Execute'],
      ['paused', '2 agents', 'Resume'],
      ['failed', '3 agents', 'Activate'],
    ]);
    // No run listed, and none older to look up: Last Result has nothing to open.
    for (const card of cards)
      expect(within(card).getByRole('button', { name: 'Last Result' }).hasAttribute('disabled')).toBe(true);
  });
});

describe("the card's Activate behind the activation gate", () => {
  it('says the evaluation runs (and leaves the workflow as it was), then shows the refusal', async () => {
    const answers = [
      {
        status: 202,
        body: {
          code: 'evaluation_running',
          message: evaluationMessages.evaluationRunning(0, 2),
          evalRunId: 'er-1',
        },
      },
      {
        status: 409,
        body: {
          code: 'evaluation_failed',
          message: evaluationMessages.evaluationFailed(0.5, 0.8),
          passRate: 0.5,
          minPassRate: 0.8,
          evalRunId: 'er-1',
          failedItems: [],
        },
      },
    ];
    server.use(
      http.put(`${ORIGIN}/api/workflows/w1`, () => {
        const answer = answers.shift()!;
        return HttpResponse.json(answer.body, { status: answer.status });
      }),
    );
    const { queryClient } = renderWithApp(
      <WorkflowCard workflow={workflow('w1', 'draft', 1)} lastExecution={null} />,
    );
    queryClient.setQueryData(queryKeys.workflows.all, [workflow('w1', 'draft', 1)]);
    render(<Toaster />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('Evaluation running')).toBeTruthy();
    expect(screen.getByText(evaluationMessages.evaluationRunning(0, 2))).toBeTruthy();
    expect(queryClient.getQueryData<Workflow[]>(queryKeys.workflows.all)?.[0]?.status).toBe('draft');

    await user.click(screen.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('Activation refused')).toBeTruthy();
    expect(screen.getByText(evaluationMessages.evaluationFailed(0.5, 0.8))).toBeTruthy();
  });
});
