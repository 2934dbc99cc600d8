// POST /api/datasets/:id/import: the file's own bytes as the body, under its content type (CSV,
// JSONL or an OpenAI Evals JSON export), so it goes out with fetch rather than api.call (which sends
// JSON); the same rules otherwise (lib/api.ts: the session's bearer, cookies, `Error("<status>: …")`).
import type { DatasetImportQuery, DatasetImportResult } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { getAuthToken, throwIfResNotOk } from '@/lib/api';
import { endpointUrl } from '@/lib/api-call';
import { evaluationKeys } from '@/lib/evaluation-keys';

import type { ImportContentType } from '../datasets/import-mapping';

export type ImportRequest = {
  datasetId: string;
  file: Blob;
  contentType: ImportContentType;
  query: DatasetImportQuery;
  signal?: AbortSignal;
};

async function importDatasetFile({
  datasetId,
  file,
  contentType,
  query,
  signal,
}: ImportRequest): Promise<DatasetImportResult> {
  const headers: Record<string, string> = { 'Content-Type': contentType };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(endpointUrl(endpoints.evaluations.importItems.path, { id: datasetId }, query), {
    method: 'POST',
    headers,
    body: file,
    credentials: 'include',
    signal,
  });
  await throwIfResNotOk(res);
  return (await res.json()) as DatasetImportResult;
}

/** What the file would add with a mapping (nothing is added). */
export function usePreviewImport() {
  return useMutation({
    mutationFn: (request: Omit<ImportRequest, 'query'> & { query: Omit<DatasetImportQuery, 'preview'> }) =>
      importDatasetFile({ ...request, query: { ...request.query, preview: 'true' } }),
  });
}

/** Adds the file's items as one new version of the dataset. */
export function useImportItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importDatasetFile,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets }),
  });
}
