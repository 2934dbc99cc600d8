// The addresses of the Evaluations screens this feature links to.

export const EVALUATIONS_PATH = '/evaluations';

export function datasetPath(id: string): string {
  return `/evaluations/datasets/${encodeURIComponent(id)}`;
}

export function evaluationPath(id: string): string {
  return `/evaluations/${encodeURIComponent(id)}`;
}
