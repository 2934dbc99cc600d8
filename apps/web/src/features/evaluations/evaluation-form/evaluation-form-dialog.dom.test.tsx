import {
  createEvaluationSchema,
  graderTypeLabels,
  graderTypeValues,
  type CreateEvaluationInput,
  type Dataset,
  type Evaluation,
  type Workflow,
} from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { answerGet, answerPost, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { EvaluationFormDialog } from './evaluation-form-dialog';

const workflow = { id: 'w1', name: 'Support bot' } as Workflow;
const dataset = { id: 'd1', name: 'Support questions', version: 1, itemCount: 4 } as Dataset;

function answerLists(sent: CreateEvaluationInput[]) {
  server.use(
    answerGet<Workflow[]>('/api/workflows', [workflow]),
    answerGet<Dataset[]>('/api/datasets', [dataset]),
    answerGet('/api/llm/providers', {
      openai: { name: 'OpenAI', models: ['gpt-4o'], defaultModel: 'gpt-4o' },
    }),
    answerPost<CreateEvaluationInput, Evaluation>(
      '/api/evaluations',
      { id: 'e1', name: 'Support answers' } as Evaluation,
      sent,
    ),
  );
}

/** The fields a grader of each type needs before the contracts accept it. */
const REQUIRED: Partial<Record<(typeof graderTypeValues)[number], Record<string, string>>> = {
  json_schema: { 'JSON Schema': '{{ "type": "object" }' },
  llm_judge: { Rubric: 'Polite and correct' },
  max_cost: { 'Max cost (USD)': '0.05' },
  max_latency: { 'Max time (ms)': '30000' },
};

describe('the evaluation form', () => {
  it('says what is missing before it sends anything', async () => {
    const sent: CreateEvaluationInput[] = [];
    answerLists(sent);
    const user = userEvent.setup();
    renderWithApp(<EvaluationFormDialog open onOpenChange={() => {}} evaluation={null} />);

    await user.click(await screen.findByRole('button', { name: 'Remove grader 1 (Exact match)' }));
    await user.clear(screen.getByLabelText('Pass threshold (%)'));
    await user.type(screen.getByLabelText('Pass threshold (%)'), '120');
    await user.click(screen.getByRole('button', { name: 'Create evaluation' }));

    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('A workflow is required')).toBeTruthy();
    expect(screen.getByText('A dataset is required')).toBeTruthy();
    expect(screen.getByText('Add at least one grader')).toBeTruthy();
    expect(screen.getByText('Enter a percentage from 0 to 100')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends a grader of every type in a body the contracts accept', async () => {
    const sent: CreateEvaluationInput[] = [];
    answerLists(sent);
    const onOpenChange = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<EvaluationFormDialog open onOpenChange={onOpenChange} evaluation={null} />);

    await user.type(await screen.findByLabelText('Name'), 'Support answers');
    await user.click(screen.getByRole('combobox', { name: 'Workflow' }));
    await user.click(await screen.findByRole('option', { name: 'Support bot' }));
    await user.click(screen.getByRole('combobox', { name: 'Dataset' }));
    await user.click(await screen.findByRole('option', { name: 'Support questions' }));

    // The form starts with an exact-match grader; add one of each other type.
    for (const type of graderTypeValues.slice(1)) {
      await user.click(screen.getByRole('combobox', { name: 'Grader type' }));
      await user.click(await screen.findByRole('option', { name: graderTypeLabels[type] }));
      await user.click(screen.getByRole('button', { name: 'Add grader' }));
    }
    const graders = screen.getAllByTestId('grader');
    expect(graders).toHaveLength(graderTypeValues.length);
    for (const [index, type] of graderTypeValues.entries()) {
      const card = graders[index];
      for (const [label, value] of Object.entries(REQUIRED[type] ?? {})) {
        await user.type(within(card).getByLabelText(label), value);
      }
    }
    await user.type(within(graders[0]).getByLabelText('Expected'), 'In transit');
    await user.type(within(graders[5]).getByLabelText('Tolerance'), '.5');
    await user.type(within(graders[2]).getByLabelText('Weight'), '2');
    await user.clear(screen.getByLabelText('Pass threshold (%)'));
    await user.type(screen.getByLabelText('Pass threshold (%)'), '75');
    await user.click(screen.getByRole('switch', { name: 'Run nightly against the active version' }));
    await user.clear(screen.getByLabelText('Alert below (%)'));
    await user.type(screen.getByLabelText('Alert below (%)'), '80');
    await user.click(screen.getByRole('button', { name: 'Create evaluation' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    const body = sent[0];
    expect(createEvaluationSchema.safeParse(body).success).toBe(true);
    expect(body.graders.map((grader) => grader.type)).toEqual([...graderTypeValues]);
    expect(body).toMatchObject({
      name: 'Support answers',
      workflowId: 'w1',
      datasetId: 'd1',
      passThreshold: 0.75,
      schedule: { nightly: true, minPassRate: 0.8 },
    });
    expect(body.graders[0]).toEqual({ type: 'exact', expected: 'In transit', caseSensitive: false });
    expect(body.graders[2]).toMatchObject({ type: 'regex', weight: 2 });
    expect(body.graders[4]).toEqual({ type: 'json_schema', schema: { type: 'object' } });
    expect(body.graders[5]).toEqual({ type: 'numeric', tolerance: 0.5, relative: false });
    expect(body.graders[7]).toEqual({
      type: 'llm_judge',
      rubric: 'Polite and correct',
      scale: 'pass_fail',
      provider: 'openai',
      model: 'gpt-4o',
    });
    expect(body.graders[8]).toEqual({ type: 'max_cost', maxUsd: 0.05 });
    expect(body.graders[9]).toEqual({ type: 'max_latency', maxMs: 30000 });
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });
});
