import type { Execution } from '@crewline/contracts';
import type { QueryClient } from '@tanstack/react-query';

import { downloadFile } from '@/lib/download';
import { fetchExecution } from '@/lib/queries/executions';

import { executionOutputFileName, formatOutputJson } from './execution-facts';

/** Saves an execution's output as execution-{first 8 characters of id}-output.json (docs/product-rules.md). */
export function downloadExecutionOutput(execution: Pick<Execution, 'id' | 'output'>): void {
  downloadFile(executionOutputFileName(execution.id), formatOutputJson(execution.output));
}

/** Download Results from a list's summary: reads the whole run (GET /api/executions/:id) first. */
export async function downloadExecutionOutputById(queryClient: QueryClient, id: string): Promise<void> {
  const execution = await fetchExecution(queryClient, id);
  downloadExecutionOutput(execution);
}
