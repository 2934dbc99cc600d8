import type { Execution } from '@crewline/contracts';

import { executionOutputFileName, formatOutputJson } from './execution-logic';

/**
 * Saves an execution's output as execution-{first 8 characters of id}-output.json (spec part 1 §2):
 * a Blob behind an object URL, clicked through a temporary <a download>.
 */
export function downloadExecutionOutput(execution: Pick<Execution, 'id' | 'output'>): void {
  const blob = new Blob([formatOutputJson(execution.output)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = executionOutputFileName(execution.id);
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Give the browser time to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
