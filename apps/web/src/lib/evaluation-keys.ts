// The query keys of the Evaluations screens (datasets, evaluations, eval runs and their comparison)
// and of the runs list's 'Add to dataset', built as lib/queries/keys.ts builds every other key. Apart
// from it because only those lazy screens read them: keys.ts loads with the dashboard's first
// JavaScript, whose budget has no room for keys the dashboard never reads.
import * as paths from '@crewline/contracts/paths';

import { endpointKey, keyHead } from './queries/endpoint-key';

export const evaluationKeys = {
  /** Every dataset read (the list, each dataset and its items): what a change of one makes stale. */
  datasets: endpointKey(paths.evaluations.datasets),
  dataset: (id: string) => endpointKey(paths.evaluations.dataset, { id }),
  /** A dataset's items with the dataset (its current version). */
  items: (id: string) => endpointKey(paths.evaluations.datasetItems, { id }),

  /** Every evaluation read (the lists, each evaluation and its runs). */
  evaluations: endpointKey(paths.evaluations.evaluations),
  /** The evaluations, of one workflow when `workflowId` is given. */
  evaluationList: (query: { workflowId?: string } = {}) =>
    endpointKey(paths.evaluations.evaluations, {}, query),
  evaluation: (id: string) => endpointKey(paths.evaluations.evaluation, { id }),
  /** An evaluation's eval runs, newest first. */
  evaluationRuns: (id: string) => endpointKey(paths.evaluations.evaluationRuns, { id }),

  /** Every eval run read, comparisons included. */
  evalRuns: [keyHead(paths.evaluations.evalRun)] as readonly unknown[],
  evalRun: (id: string) => endpointKey(paths.evaluations.evalRun, { id }),
  /** Two eval runs side by side, under the eval runs' head. */
  comparison: (query: { a: string; b: string }) =>
    endpointKey(paths.evaluations.compareEvalRuns, {}, query, keyHead(paths.evaluations.evalRun)),
};
