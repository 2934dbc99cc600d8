// The paths of `endpoints.evaluations` (index.ts says why they are apart from the descriptors).
export const datasets = '/api/datasets';
export const dataset = '/api/datasets/:id';
export const datasetItems = '/api/datasets/:id/items';
export const datasetItem = '/api/datasets/:id/items/:itemId';
export const datasetImport = '/api/datasets/:id/import';
export const datasetItemsFromExecutions = '/api/datasets/:id/items/from-executions';
export const evaluations = '/api/evaluations';
export const evaluation = '/api/evaluations/:id';
export const evaluationRuns = '/api/evaluations/:id/runs';
export const evalRun = '/api/eval-runs/:id';
export const cancelEvalRun = '/api/eval-runs/:id/cancel';
export const compareEvalRuns = '/api/eval-runs/compare';
