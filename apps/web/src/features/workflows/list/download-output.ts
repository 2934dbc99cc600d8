import type { Execution } from '@crewline/contracts';

import { downloadFile } from '@/lib/download';

import { executionOutputFileName, formatOutputJson } from './execution-logic';

/** Saves an execution's output as execution-{first 8 characters of id}-output.json (spec part 1 §2). */
export function downloadExecutionOutput(execution: Pick<Execution, 'id' | 'output'>): void {
  downloadFile(executionOutputFileName(execution.id), formatOutputJson(execution.output));
}
