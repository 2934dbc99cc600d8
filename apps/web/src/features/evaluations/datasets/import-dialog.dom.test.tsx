import type { Dataset, DatasetImportResult } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ImportDialog } from './import-dialog';

const dataset: Dataset = {
  id: 'd1',
  name: 'Support questions',
  description: null,
  version: 3,
  itemCount: 0,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:00:00.000Z',
};

const CSV = 'question,answer,category,notes\nWhere is my order?,In transit,shipping,asked twice\n';

type Sent = { search: URLSearchParams; contentType: string | null; body: string };

/** Answers the import as the server would read the CSV with the query's mapping. */
function importServer(sent: Sent[]) {
  server.use(
    http.post(`${ORIGIN}/api/datasets/d1/import`, async ({ request }) => {
      const search = new URL(request.url).searchParams;
      sent.push({ search, contentType: request.headers.get('content-type'), body: await request.text() });
      const expected = search.get('expected');
      const tags = search.get('tags');
      const ignored = (search.get('ignore') ?? '').split(',');
      const row: Record<string, string> = {
        question: 'Where is my order?',
        answer: 'In transit',
        category: 'shipping',
        notes: 'asked twice',
      };
      const input = Object.fromEntries(
        Object.entries(row).filter(
          ([column]) => column !== expected && column !== tags && !ignored.includes(column),
        ),
      );
      const preview = search.get('preview') === 'true';
      const answer: DatasetImportResult = {
        format: 'csv',
        columns: Object.keys(row),
        sample: [{ input, expected: expected ? row[expected] : undefined, tags: tags ? [row[tags]] : [] }],
        added: preview ? 0 : 1,
        total: 1,
        graders: [],
        skipped: ['Line 3: 2 columns, the header has 4'],
        dataset,
      };
      return HttpResponse.json(answer);
    }),
  );
}

describe('the Import dialog', () => {
  it('previews the file, maps its columns, and imports with the mapping as the query', async () => {
    const sent: Sent[] = [];
    importServer(sent);
    const onOpenChange = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<ImportDialog datasetId="d1" open onOpenChange={onOpenChange} />);

    await user.upload(screen.getByLabelText('File'), new File([CSV], 'support.csv', { type: 'text/csv' }));

    // The 'answer' column starts as the expected answer: the preview is asked again with it.
    const mapping = await screen.findByRole('table', { name: 'Column mapping' });
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(within(mapping).getByRole('combobox', { name: 'answer becomes' }).textContent).toBe('Expected');
    expect(screen.getByText('Line 3: 2 columns, the header has 4')).toBeTruthy();

    await user.click(within(mapping).getByRole('combobox', { name: 'category becomes' }));
    await user.click(await screen.findByRole('option', { name: 'Tags' }));
    await user.click(within(mapping).getByRole('combobox', { name: 'notes becomes' }));
    await user.click(await screen.findByRole('option', { name: 'Ignore' }));

    // The sample shows the item as it will be added with this mapping.
    const sample = screen.getByRole('table', { name: 'Sample items' });
    await waitFor(() => expect(within(sample).getByText('shipping')).toBeTruthy());
    expect(within(sample).getByText('{"question":"Where is my order?"}')).toBeTruthy();
    expect(within(sample).getByText('In transit')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Import 1 item' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));

    const last = sent.at(-1)!;
    expect(Object.fromEntries(last.search)).toEqual({
      expected: 'answer',
      tags: 'category',
      ignore: 'notes',
    });
    expect(last.contentType).toBe('text/csv');
    expect(last.body).toBe(CSV);
    // Every request before it was a preview.
    expect(sent.slice(0, -1).every((request) => request.search.get('preview') === 'true')).toBe(true);
  });

  it('refuses a file of another kind without sending it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderWithApp(<ImportDialog datasetId="d1" open onOpenChange={() => {}} />);
    await user.upload(screen.getByLabelText('File'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Choose a .csv, .jsonl or .json file')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows an OpenAI Evals export's converted graders, and hands them on once the items are added", async () => {
    const graders = [{ type: 'exact' as const, name: 'Exact answer' }];
    server.use(
      http.post(`${ORIGIN}/api/datasets/d1/import`, ({ request }) => {
        const preview = new URL(request.url).searchParams.get('preview') === 'true';
        const answer: DatasetImportResult = {
          format: 'openai_evals',
          columns: ['question', 'ideal'],
          sample: [{ input: { question: 'Capital of France?' }, expected: 'Paris', tags: [] }],
          added: preview ? 0 : 1,
          total: 1,
          graders,
          skipped: ["Grader 'style' (python): Crewline runs no Python graders"],
          dataset,
        };
        return HttpResponse.json(answer);
      }),
    );
    const onImported = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<ImportDialog datasetId="d1" open onOpenChange={() => {}} onImported={onImported} />);
    await user.upload(
      screen.getByLabelText('File'),
      new File(['{}'], 'export.json', { type: 'application/json' }),
    );
    expect((await screen.findByTestId('import-graders')).textContent).toBe(
      '1 grader converted: after the import, a new evaluation of this dataset starts with it',
    );
    expect(screen.getByText("Grader 'style' (python): Crewline runs no Python graders")).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Import 1 item' }));
    await waitFor(() => expect(onImported).toHaveBeenCalledWith(expect.objectContaining({ graders })));
  });
});
