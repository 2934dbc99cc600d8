import type { CreateDatasetInput, Dataset } from '@crewline/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { answerGet, answerPost, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { AddToDatasetDialog } from './add-to-dataset-dialog';

const dataset = (id: string, name: string): Dataset => ({
  id,
  name,
  description: null,
  version: 1,
  itemCount: 0,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
});

type FromExecutions = { executionIds: string[]; useResultAsExpected: boolean };

describe('Add to dataset', () => {
  it('adds the selected runs to a chosen dataset, their results as expected', async () => {
    const added: FromExecutions[] = [];
    server.use(
      answerGet<Dataset[]>('/api/datasets', [dataset('d1', 'Support questions'), dataset('d2', 'Refunds')]),
      answerPost<FromExecutions, { added: number; dataset: Dataset }>(
        '/api/datasets/d2/items/from-executions',
        { added: 2, dataset: dataset('d2', 'Refunds') },
        added,
      ),
    );
    const onAdded = vi.fn();
    const user = userEvent.setup();
    renderWithApp(
      <AddToDatasetDialog executionIds={['r1', 'r2']} open onOpenChange={() => {}} onAdded={onAdded} />,
    );

    await user.click(screen.getByRole('combobox', { name: 'Dataset' }));
    await user.click(await screen.findByRole('option', { name: 'Refunds' }));
    await user.click(screen.getByRole('checkbox', { name: "Use each run's result as expected" }));
    await user.click(screen.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(onAdded).toHaveBeenCalled());
    expect(added).toEqual([{ executionIds: ['r1', 'r2'], useResultAsExpected: true }]);
  });

  it('creates a new dataset first, then adds the runs to it', async () => {
    const created: CreateDatasetInput[] = [];
    const added: FromExecutions[] = [];
    server.use(
      answerGet<Dataset[]>('/api/datasets', []),
      answerPost<CreateDatasetInput, Dataset>('/api/datasets', dataset('d9', 'From runs'), created),
      answerPost<FromExecutions, { added: number; dataset: Dataset }>(
        '/api/datasets/d9/items/from-executions',
        { added: 1, dataset: dataset('d9', 'From runs') },
        added,
      ),
    );
    const onAdded = vi.fn();
    const user = userEvent.setup();
    renderWithApp(
      <AddToDatasetDialog executionIds={['r7']} open onOpenChange={() => {}} onAdded={onAdded} />,
    );

    // With no dataset yet, a new one is the choice: its name is asked for.
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    await user.type(screen.getByLabelText('Name'), 'From runs');
    await user.click(screen.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(onAdded).toHaveBeenCalled());
    expect(created).toEqual([{ name: 'From runs' }]);
    expect(added).toEqual([{ executionIds: ['r7'], useResultAsExpected: false }]);
  });
});
